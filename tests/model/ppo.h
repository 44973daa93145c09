/*
 * The memory model of these Promela models (tests/model/orderings.sh runs
 * them): one memory that every process reads and writes in indivisible
 * steps, and processes that perform their accesses in any order their
 * orderings allow, not in program order.  Each access is an EVENT with a
 * guard that names the earlier events it must follow:
 *   - any access: earlier accesses to the same word, and the loads whose
 *     value it uses (data, address and control dependencies);
 *   - an acquire load, a seq_cst access or fence: every later access
 *     follows it;
 *   - a release store, a seq_cst access or fence: it follows every
 *     earlier access;
 *   - a release fence: every later store follows it and it follows every
 *     earlier access; an acquire fence: it follows every earlier load and
 *     every later access follows it.
 * A relaxed access follows nothing else, so a store may pass a store or a
 * load, and a load a load or a store (what Arm's cores do, and C11 allows).
 * Spin then tries every interleaving of every such order.  Not modelled:
 * a store seen by some processes before others (Armv8 has none), values
 * out of thin air.
 */
#define EVENT(done, guard, body) :: !(done) && (guard) -> atomic { body; done = true }
