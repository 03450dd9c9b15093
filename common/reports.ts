/** What a message can be reported for (docs/product.md#reports), with the label the report popup shows. */
export const REPORT_REASONS = [
  { value: 'personal-abuse', label: 'Personal Abuse' },
  { value: 'advertisement', label: 'Advertisement' },
  { value: 'propaganda', label: 'Political Propaganda' },
  { value: 'hate-speech', label: 'Hate Speech' },
  { value: 'spam', label: 'Spam' },
  { value: 'other', label: 'Other' },
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number]['value'];

export const REPORT_TYPES = ['COMMENT', 'CHAT', 'PICTURE'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** A report's description: required, at most 1000 characters (docs/product.md#reports). */
export const MAX_REPORT_DESCRIPTION = 1000;

/** Said when a report's description is empty or only spaces. */
export const BLANK_DESCRIPTION_TEXT = 'Describe what is wrong with this message.';

/** Required means something to read: a description of spaces alone is none (the report popup trims the same way). */
export const isBlankDescription = (text: string): boolean => text.trim() === '';
