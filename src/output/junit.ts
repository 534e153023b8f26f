// JUnit XML, as CI systems read it (GitHub, GitLab, Jenkins): one suite of test cases, each passed
// or failed with a type, a message and a detail. Every text is escaped and stripped of what XML
// cannot hold, so a service's text can neither end an attribute nor break the document.

/** Text for XML: markup characters escaped, characters XML 1.0 cannot carry dropped. */
export const xmlText = (text: string): string =>
  text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c).replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');

export interface JunitFailure {
  type: string;
  message: string;
  detail: string;
}

/** One testcase element (with its failure, if it failed, or why it was skipped). */
export function junitCase(classname: string, name: string, failure?: JunitFailure, skipped?: string): string {
  const open = `<testcase classname="${xmlText(classname)}" name="${xmlText(name)}"`;
  if (!failure && skipped !== undefined) return `    ${open}>\n      <skipped message="${xmlText(skipped)}"/>\n    </testcase>\n`;
  if (!failure) return `    ${open}/>\n`;
  return `    ${open}>\n      <failure type="${xmlText(failure.type)}" message="${xmlText(failure.message)}">${xmlText(failure.detail)}</failure>\n    </testcase>\n`;
}

/** The document around testcase elements: one suite named `suite`. */
export function junitDocument(suite: string, cases: string, tests: number, failures: number): string {
  const attributes = `name="${xmlText(suite)}" tests="${tests}" failures="${failures}" errors="0"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attributes}>\n  <testsuite ${attributes}>\n${cases}  </testsuite>\n</testsuites>\n`;
}
