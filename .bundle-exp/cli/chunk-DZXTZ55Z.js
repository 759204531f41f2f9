// src/interfaces/recorded-file-content.ts
function recordedFileContent(events, realPath, before) {
  let content;
  for (const event of events) {
    if (event.sequence >= before) break;
    const payload = event.payload;
    if (payload.type !== "tool_receipt" || payload.outcome !== "succeeded") continue;
    if (!payload.files.some((file) => file.path === realPath)) continue;
    const args = payload.args;
    if (payload.tool === "read_file") {
      const whole = !payload.truncated && args.startLine === void 0 && args.endLine === void 0;
      content = whole ? payload.output : void 0;
    } else if (payload.tool === "write_file" && typeof args.content === "string") {
      content = args.content;
    } else if (payload.tool === "edit_file" && content !== void 0 && typeof args.search === "string" && typeof args.replace === "string") {
      const replace = args.replace;
      content = content.replace(args.search, () => replace);
    } else {
      content = void 0;
    }
  }
  return content;
}

export {
  recordedFileContent
};
