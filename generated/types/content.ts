// Generated from schemas/content.schema.json by scripts/generate-types.ts — do not edit.

/**
 * The content block types declared at the pinned commit.
 */
export type KnownContentBlockType = "text" | "reasoning" | "image" | "tool-call" | "tool-result";

/**
 * Open union keyed by type: a known block with its declared fields, or a block of an unknown type.
 */
export type ContentBlock =
  TextBlock | ReasoningBlock | ImageBlock | ToolCallBlock | ToolResultBlock | UnknownContentBlock;

/**
 * Text visible to the end user.
 */
export interface TextBlock {
  type: "text";
  text: string;
}

/**
 * Reasoning (thinking) text, kept apart from visible text.
 */
export interface ReasoningBlock {
  type: "reasoning";
  text: string;
}

/**
 * A reference to a stored raster image.
 */
export interface ImageBlock {
  type: "image";
  attachment: ImageAttachmentRef;
}

/**
 * Closed set of image media types.
 */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/webp" | "image/gif";

/**
 * Durable metadata of one stored image. The bytes themselves live outside the log.
 */
export interface ImageAttachmentRef {
  /**
   * Opaque storage identifier.
   */
  attachmentId: string;
  mediaType: ImageMediaType;
  /**
   * Encoded byte length.
   */
  bytes: number;
  /**
   * Width in pixels.
   */
  width: number;
  /**
   * Height in pixels.
   */
  height: number;
  /**
   * Display name without path information.
   */
  name?: string;
}

/**
 * A tool invocation requested by the model.
 */
export interface ToolCallBlock {
  type: "tool-call";
  /**
   * Provider-issued call id; pairs the call with its result.
   */
  id: string;
  name: string;
  /**
   * The raw JSON text of the arguments, exactly as the model produced it.
   */
  arguments: string;
}

/**
 * The result of one tool invocation, sent back to the model.
 */
export interface ToolResultBlock {
  type: "tool-result";
  toolCallId: string;
  content: ContentBlock[];
  isError?: boolean;
}

/**
 * A block whose type is not one of the known content block types: only its type is constrained.
 */
export interface UnknownContentBlock {
  type: string;
}
