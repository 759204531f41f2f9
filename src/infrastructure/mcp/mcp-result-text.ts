import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * The text a model reads for an MCP result: text blocks as they are, other blocks named with
 * their type and size (an image's bytes mean nothing in a transcript), structured content as
 * JSON when the server sent no text.
 */
export function mcpResultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const block of result.content) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
      case 'audio':
        parts.push(
          `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`,
        );
        break;
      case 'resource_link':
        parts.push(`[resource ${block.uri}${block.description ? `: ${block.description}` : ''}]`);
        break;
      case 'resource': {
        const resource = block.resource;
        parts.push(
          'text' in resource && typeof resource.text === 'string'
            ? `[resource ${resource.uri}]\n${resource.text}`
            : `[resource ${resource.uri}, binary]`,
        );
        break;
      }
      default:
        parts.push(`[${(block as { type: string }).type} content]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}
