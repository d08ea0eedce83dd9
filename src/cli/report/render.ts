import type { RenderReport } from '../pipeline/side-files';

/** Placeholder until the report lands. */
export const renderReport: RenderReport = async ({ command }) => `<!doctype html><title>${command}</title>\n`;
