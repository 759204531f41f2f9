import type { Finding } from './toolintent-events.js';

/** Builds a finding for rule `ruleId`. */
export function finding(
  ruleId: string,
  severity: Finding['severity'],
  code: string,
  message: string,
  tier: Finding['tier'] = 'T0',
): Finding {
  return { ruleId, severity, code, message, tier };
}
