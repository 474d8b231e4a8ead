/** Types of scripts/layers.mjs (plain JavaScript, so eslint.config.mjs can import it). */
export type Layer = { name: string; where: string[]; mayImport: string[] };
export function readLayers(markdown?: string): Layer[];
export function filesOf(layer: Layer): string[];
export function importsOf(layer: Layer): string[];
