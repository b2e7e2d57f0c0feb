/** What is wrong with a user's template, and on which line of its file (1-based): what every check of a template (template-check.ts) reports. */
export interface TemplateProblem {
  line: number;
  what: string;
}
