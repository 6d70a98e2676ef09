// Package rulekit is what more than one rule family needs: a view of the
// recorded calls classified by the Pilotage operation they performed, what
// one recorded call shows (a request member given, a request accepted, a Run
// started, a catalog_version reported, a one-page complete listing),
// the complete listings a recording holds with their pages joined, lookups
// that always yield a node to report at, and the phrases messages use to
// name values.
//
// # The model of a recording
//
// Every rule that compares two or more calls asks one Model, built once
// per snapshot by Of, instead of scanning the calls itself. It answers:
//
//   - Replays (Part II §6.5.2 step 1, §6.5.6). ReplayOf(c) is non-nil when
//     execute c repeats an earlier request's idempotency_key, runnable and
//     input for a Language declaring execute.idempotency, and is judged only
//     as a replay: its Window certainly covers it, or the Server answered
//     with the original's run_id, or the original's answer was lost. A
//     replay is judged only for identity with Replay.Original
//     (call-idempotent-replay-new-run, call-idempotent-replay-different-result),
//     never as a new Run: not for drift, store, trace level or presence.
//     Replays lists them all; Conflict(c) is the original whose key c
//     reuses with another runnable or input inside a certain window;
//     NewRun(c) is an execute that started a Run of its own. Refused Runs
//     and request errors are never held for replay, and outside a certain
//     window a request answered with a Run of its own is a new Run, since
//     the Server may have forgotten the key. SameExecution, Runnable and
//     RunID are the comparisons it uses.
//   - What may have changed in between. Writes(c) says whether c may have
//     changed the catalog, the stored Runs or a later answer (see Writes
//     for the calls that cannot); ReadsBetween(a, b) whether none lies
//     between two calls. A rule
//     comparing two answers across a write says why the write cannot
//     explain the difference (the same catalog_version on both sides, a
//     Run that started under the first answer's token), or stays silent.
//     EntryAt(l, id, c, cv, object) is that reading for a catalog entry:
//     the latest showing before c, when it reported c's catalog_version
//     or only reads lie between (plan step risk against the entry's,
//     a promoted program's input against its input_schema).
//   - Scope. A call's Language is snapshot.Call.Lang. TracePrefix and
//     Unprefixed give a trace entry's sub-program prefix: plan
//     correspondence is evaluated "only over unprefixed trace entries"
//     (Part II §5.8.4). PlanOf(x) pairs a Run with the plan of the same
//     program at the catalog_version it ran under, or with nothing;
//     OwnTrace tells an immediate Run or test run from a deploy Run's
//     installation trace.
//   - Version. LaterMinor is the manifest's later minor version
//     (authoritative or inline), whose additions are not judged: the one
//     answer for every rule judging tools, calls, results or probe
//     answers (DeclaresLaterMinor reads one manifest document, for the
//     rules judging that document). Extended(c) marks a call whose request
//     members, or whose Language's members, capabilities or sub-features,
//     1.1 does not define under such a manifest.
//
// A helper that only one family needs lives in that family; this package
// grows only when a second family asks. It imports no family.
package rulekit
