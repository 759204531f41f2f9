import { writeFileSync } from 'node:fs';

/*
 * Writes a tiny llama-architecture GGUF with random weights: a byte-fallback SentencePiece
 * vocabulary (control tokens, the 256 bytes, printable ASCII) and a ChatML chat template. It
 * loads through node-llama-cpp's prebuilt binaries in milliseconds and generates nonsense fast,
 * which is all a test of the harness around a local model needs. Nothing is downloaded.
 */

const ALIGNMENT = 32;
const enum ValueType {
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  String = 8,
  Array = 9,
}

type Value =
  | { type: ValueType.Uint32 | ValueType.Int32 | ValueType.Float32; value: number }
  | { type: ValueType.String; value: string }
  | { type: ValueType.Array; of: ValueType.String; values: string[] }
  | { type: ValueType.Array; of: ValueType.Float32 | ValueType.Int32; values: number[] };

class Writer {
  private readonly chunks: Buffer[] = [];
  length = 0;
  push(buffer: Buffer) {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }
  i32(value: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }
  f32(value: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }
  u64(value: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }
  string(value: string) {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad() {
    const rest = this.length % ALIGNMENT;
    if (rest !== 0) this.push(Buffer.alloc(ALIGNMENT - rest));
  }
  buffer() {
    return Buffer.concat(this.chunks);
  }
}

function writeValue(writer: Writer, value: Value) {
  writer.u32(value.type);
  switch (value.type) {
    case ValueType.Uint32:
      writer.u32(value.value);
      return;
    case ValueType.Int32:
      writer.i32(value.value);
      return;
    case ValueType.Float32:
      writer.f32(value.value);
      return;
    case ValueType.String:
      writer.string(value.value);
      return;
    case ValueType.Array:
      writer.u32(value.of);
      writer.u64(value.values.length);
      for (const item of value.values) {
        if (value.of === ValueType.String) writer.string(item as string);
        else if (value.of === ValueType.Float32) writer.f32(item as number);
        else writer.i32(item as number);
      }
  }
}

/** ChatML, as Qwen 2.5 and Hermes use it. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** A deterministic pseudo-random source (the weights must not depend on Math.random). */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

export function writeTinyGguf(path: string, options: { seed?: number } = {}): void {
  const tokens: string[] = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
  const types: number[] = [2, 3, 3, 3, 3];
  for (let byte = 0; byte < 256; byte += 1) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  for (let code = 33; code < 127; code += 1) {
    tokens.push(String.fromCharCode(code));
    types.push(1);
  }
  tokens.push('▁');
  types.push(1);
  const vocab = tokens.length;
  const embd = 32;
  const ff = 64;
  const heads = 4;
  const layers = 1;
  const kv: [string, Value][] = [
    ['general.architecture', { type: ValueType.String, value: 'llama' }],
    ['general.name', { type: ValueType.String, value: 'correx-tiny' }],
    ['general.alignment', { type: ValueType.Uint32, value: ALIGNMENT }],
    ['llama.context_length', { type: ValueType.Uint32, value: 4096 }],
    ['llama.embedding_length', { type: ValueType.Uint32, value: embd }],
    ['llama.block_count', { type: ValueType.Uint32, value: layers }],
    ['llama.feed_forward_length', { type: ValueType.Uint32, value: ff }],
    ['llama.attention.head_count', { type: ValueType.Uint32, value: heads }],
    ['llama.attention.head_count_kv', { type: ValueType.Uint32, value: heads }],
    ['llama.rope.dimension_count', { type: ValueType.Uint32, value: embd / heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: ValueType.Float32, value: 1e-5 }],
    ['tokenizer.ggml.model', { type: ValueType.String, value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: ValueType.Array, of: ValueType.String, values: tokens }],
    [
      'tokenizer.ggml.scores',
      { type: ValueType.Array, of: ValueType.Float32, values: tokens.map(() => 0) },
    ],
    ['tokenizer.ggml.token_type', { type: ValueType.Array, of: ValueType.Int32, values: types }],
    ['tokenizer.ggml.unknown_token_id', { type: ValueType.Uint32, value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: ValueType.Uint32, value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: ValueType.Uint32, value: 4 }],
    ['tokenizer.chat_template', { type: ValueType.String, value: CHATML_TEMPLATE }],
  ];
  const tensors: { name: string; dims: number[] }[] = [
    { name: 'token_embd.weight', dims: [embd, vocab] },
    { name: 'output_norm.weight', dims: [embd] },
    { name: 'output.weight', dims: [embd, vocab] },
  ];
  for (let layer = 0; layer < layers; layer += 1) {
    const blk = `blk.${layer}`;
    tensors.push(
      { name: `${blk}.attn_norm.weight`, dims: [embd] },
      { name: `${blk}.attn_q.weight`, dims: [embd, embd] },
      { name: `${blk}.attn_k.weight`, dims: [embd, embd] },
      { name: `${blk}.attn_v.weight`, dims: [embd, embd] },
      { name: `${blk}.attn_output.weight`, dims: [embd, embd] },
      { name: `${blk}.ffn_norm.weight`, dims: [embd] },
      { name: `${blk}.ffn_gate.weight`, dims: [embd, ff] },
      { name: `${blk}.ffn_up.weight`, dims: [embd, ff] },
      { name: `${blk}.ffn_down.weight`, dims: [ff, embd] },
    );
  }
  const writer = new Writer();
  writer.push(Buffer.from('GGUF', 'ascii'));
  writer.u32(3);
  writer.u64(tensors.length);
  writer.u64(kv.length);
  for (const [key, value] of kv) {
    writer.string(key);
    writeValue(writer, value);
  }
  let offset = 0;
  const sizes = tensors.map((tensor) => tensor.dims.reduce((a, b) => a * b, 1) * 4);
  tensors.forEach((tensor, index) => {
    writer.string(tensor.name);
    writer.u32(tensor.dims.length);
    for (const dim of tensor.dims) writer.u64(dim);
    writer.u32(0); // F32
    writer.u64(offset);
    offset += Math.ceil(sizes[index]! / ALIGNMENT) * ALIGNMENT;
  });
  writer.pad();
  const next = random(options.seed ?? 1);
  tensors.forEach((tensor, index) => {
    const data = Buffer.alloc(Math.ceil(sizes[index]! / ALIGNMENT) * ALIGNMENT);
    const norm = tensor.name.endsWith('norm.weight');
    for (let i = 0; i < sizes[index]! / 4; i += 1)
      data.writeFloatLE(norm ? 1 : next() * 0.5, i * 4);
    writer.push(data);
  });
  writeFileSync(path, writer.buffer());
}
