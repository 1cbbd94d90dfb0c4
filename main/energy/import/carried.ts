/** What an import reports for each setting of the previous program (settings and alert rules alike). */

/** Where one of its settings went here. */
export interface Carried {
  from: string;
  to: string;
}
/** One of its settings that stays behind, and why. */
export interface NotCarried {
  setting: string;
  reason: string;
}
