export interface UpdateCondition<Status> {
  /** Update only while the row is in one of these states (a compare-and-set); otherwise the update returns null. */
  expectStatus?: readonly Status[];
}
