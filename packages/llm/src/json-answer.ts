import { LlmAnswerError } from './errors';

/** A JSON object in a Markdown fence, as models that ignore JSON mode like to answer; text around it is allowed. */
const FENCED_JSON = /```(?:json)?[ \t]*\n([\s\S]*?)\n[ \t]*```/i;

/** The JSON object a model answered, bare or in a ```json fence; anything else is an error. */
export function parseJsonObject(content: string): Record<string, unknown> {
  const fenced = FENCED_JSON.exec(content);
  const text = (fenced ? fenced[1]! : content).trim();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LlmAnswerError('the answer is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LlmAnswerError('the answer is not a JSON object');
  }
  return value as Record<string, unknown>;
}
