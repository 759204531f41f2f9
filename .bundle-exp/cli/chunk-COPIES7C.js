// src/core/policies/path-glob.ts
function matchGlob(pattern, path, options) {
  const fold = options?.foldCase === true;
  const normalize = (text) => fold ? text.normalize("NFC").toLowerCase() : text;
  const patternSegments = splitSegments(normalize(pattern));
  const pathSegments = splitSegments(normalize(path));
  return matchSegments(patternSegments, 0, pathSegments, 0);
}
function splitSegments(text) {
  return text.split("/").filter((segment, index) => segment !== "" || index === 0);
}
function matchSegments(pattern, p, path, q) {
  if (p === pattern.length) return q === path.length;
  const segment = pattern[p];
  if (segment === "**") {
    for (let skip = q; skip <= path.length; skip++) {
      if (matchSegments(pattern, p + 1, path, skip)) return true;
    }
    return false;
  }
  if (q === path.length) return false;
  return matchSegment(segment, path[q]) && matchSegments(pattern, p + 1, path, q + 1);
}
function matchSegment(pattern, text) {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const c = pattern[p];
    if (c === "?" || c !== void 0 && c !== "*" && c === text[t]) {
      p++;
      t++;
    } else if (c === "*") {
      starP = p++;
      starT = t;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}
function globStaticPrefix(pattern) {
  const segments = pattern.split("/");
  const fixed = [];
  for (const segment of segments) {
    if (/[*?]/.test(segment)) break;
    fixed.push(segment);
  }
  return fixed.join("/");
}

// src/core/toolintent/host-match.ts
function hostAllowed(host, allowlist) {
  if (!isCanonicalHost(host)) return false;
  return allowlist.some((entry) => {
    if (entry.startsWith("*.")) {
      const base = entry.slice(2);
      return host.length > base.length + 1 && host.endsWith(`.${base}`);
    }
    return host === entry;
  });
}
function isCanonicalHost(host) {
  return host.length > 0 && host.length <= 253 && /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host);
}
function parseUrlTarget(raw) {
  if (hasControlOrBackslash(raw))
    return { ok: false, reason: "the URL contains control characters or backslashes" };
  let url;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not an absolute URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: `scheme ${url.protocol} is not allowed` };
  }
  if (url.username !== "" || url.password !== "")
    return { ok: false, reason: "URLs with userinfo are refused" };
  const host = url.hostname;
  if (!isCanonicalHost(host))
    return { ok: false, reason: `host ${JSON.stringify(host)} is not a plain hostname` };
  return { ok: true, host, protocol: url.protocol };
}
function hasControlOrBackslash(text) {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 32 || code === 127 || code === 92) return true;
  }
  return false;
}

export {
  hostAllowed,
  parseUrlTarget,
  matchGlob,
  globStaticPrefix
};
