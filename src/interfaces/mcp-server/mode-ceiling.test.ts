import { describe, expect, it } from 'vitest';
import { mcpSessionMode, modeAbove } from './mode-ceiling.js';

describe('the mode of a session started over MCP', () => {
  it('defaults to auto, lowered to the configured mode when that lets less run without a person', () => {
    expect(mcpSessionMode(undefined, 'yolo')).toBe('auto');
    expect(mcpSessionMode(undefined, 'auto')).toBe('auto');
    expect(mcpSessionMode(undefined, 'prompt')).toBe('prompt');
    expect(mcpSessionMode(undefined, 'deny')).toBe('deny');
  });

  it('refuses (null) a mode above the configured one and keeps any at or below it', () => {
    expect(mcpSessionMode('yolo', 'auto')).toBeNull();
    expect(mcpSessionMode('auto', 'prompt')).toBeNull();
    expect(mcpSessionMode('prompt', 'deny')).toBeNull();
    expect(mcpSessionMode('prompt', 'auto')).toBe('prompt');
    expect(mcpSessionMode('deny', 'prompt')).toBe('deny');
    expect(mcpSessionMode('yolo', 'yolo')).toBe('yolo');
  });

  it('orders deny < prompt < auto < yolo', () => {
    const order = ['deny', 'prompt', 'auto', 'yolo'] as const;
    for (const [i, lower] of order.entries())
      for (const [j, higher] of order.entries()) expect(modeAbove(higher, lower)).toBe(j > i);
  });
});
