/** The layer table of docs/architecture.md: each unit of src/ and the units it may import (see layers.js). */
export declare const LAYERS: Readonly<Record<string, { layer: number; imports: readonly string[] }>>;
