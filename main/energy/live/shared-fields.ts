/**
 * The live-state fields one feature publishes and another (or the core) reads, by this contract and
 * never by importing the feature: each feature declares its fields and their schema in its own
 * folder (`<feature>/live-fields.ts`), and main/energy/published.ts checks at compile time that what
 * they declare fits what is read here. A field is absent while its feature is not in the list.
 */
export interface SharedLiveFields {
  /** The alert rules firing now (alerts): HomeKit's contact sensors, the tray's notifications. */
  alerts?: ReadonlyArray<{ readonly id: string }>;
  /** The battery outlook's verdict on today's peak windows (outlook): the alert "will not cover the peak". */
  outlook?: { readonly coversPeak: boolean | null; readonly message: string | null };
  /** The outdoor weather while it is on (weather): history records its temperature with each poll. */
  weather?: { readonly outdoorTemp: number | null } | null;
}
