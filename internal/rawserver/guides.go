package rawserver

type guide struct {
	id, title, level, version string
	topics                    []string
	body                      string
}

func (g guide) meta() map[string]any {
	topics := make([]any, len(g.topics))
	for i, t := range g.topics {
		topics[i] = t
	}
	return obj("id", g.id, "title", g.title, "level", g.level, "topics", topics, "language", languageName,
		"version", g.version, "size_bytes", len(g.body), "format", "text/markdown")
}

var guides = []guide{
	{id: "lumen-core", title: "Your first lighting scene", level: "core", version: "1",
		topics: []string{"shape", "steps", "expressions", "input", "modes", "the-loop"}, body: coreGuide},
	{id: "lumen-closed-sets", title: "The closed sets of lumen/1", level: "reference", version: "1",
		topics: []string{"closed-sets", "diagnostic-codes", "kinds", "risk", "scope-rules", "input-binding",
			"step-ids", "outcomes", "trace-levels", "output", "bounds"}, body: closedSetsGuide},
	{id: "lumen-examples", title: "Worked scenes", level: "examples", version: "1",
		topics: []string{"branch", "loop", "input", "deploy"}, body: examplesGuide},
}

const coreGuide = "# lumen/1: your first lighting scene\n\n" +
	"A **scene** is a JSON object passed in the `lumen` argument of `lumen_validate` and\n" +
	"`lumen_run`. The smallest useful scene has one step:\n\n" +
	"```json\n" +
	"{\n" +
	"  \"steps\": [\n" +
	"    { \"id\": \"desk\", \"do\": \"call\", \"target\": \"lamp.desk\", \"with\": { \"level\": 40 } }\n" +
	"  ],\n" +
	"  \"output\": { \"desk\": \"$.steps.desk.output.level\" }\n" +
	"}\n" +
	"```\n\n" +
	"## The scene object\n\n" +
	"- `steps` (required): the steps, run in order.\n" +
	"- `input` (optional): declared parameters, `{\"name\": \"number\" | \"string\" | \"boolean\"}`.\n" +
	"- `output` (optional): `{\"key\": expression}`, evaluated after the last step.\n" +
	"- `trigger` (only to install an automation): `{\"sensor\": \"<sensor id>\"}`.\n\n" +
	"## Steps\n\n" +
	"Every step has `do` and, optionally, an `id` (letters, digits, `-`, `_`, `.`;\n" +
	"never `#` or `/`). Without an `id` the step gets a generated one (see the\n" +
	"closed-sets guide).\n\n" +
	"- `call`: invoke a catalog entry: `target` (an entry id) and `with` (its\n" +
	"  input, per the entry's `input_schema`). A fixture can also be read with\n" +
	"  `\"action\": \"read\"` and no `with`.\n" +
	"- `if`: `when` (a condition), `then` and optional `else` (step lists).\n" +
	"- `repeat`: `times` (0 to 50) and `body` (a step list).\n" +
	"- `let`: `value` (an expression or a literal); a pure computation.\n\n" +
	"## Expressions and conditions\n\n" +
	"A string starting with `$.` is an expression: `$.input.<name>`,\n" +
	"`$.steps.<id>.output.<field>`, `$.loop.<repeat id>.index`. Anything else is a\n" +
	"literal. A condition is `{\"gt\": [a, b]}`, `{\"lt\": [a, b]}` or `{\"eq\": [a, b]}`.\n\n" +
	"## Input\n\n" +
	"Declare `\"input\": {\"level\": \"number\"}` and pass `\"input\": {\"level\": 30}` to\n" +
	"`lumen_run`; use it as `$.input.level`.\n\n" +
	"## Modes\n\n" +
	"`lumen_run` needs `mode`: `\"immediate\"` runs the scene now; `\"deploy\"` installs a\n" +
	"scene that has a `trigger` as an automation. `test_run: true` evaluates either\n" +
	"without touching any light.\n\n" +
	"## The loop\n\n" +
	"Call `pilotage_manifest`, read this guide, look targets up with\n" +
	"`pilotage_catalog`, check the scene with `lumen_validate`, then run it with\n" +
	"`lumen_run`, passing the `catalog_version` validation returned as\n" +
	"`expected_catalog_version`. Runs are kept for the session: `lumen_trace`\n" +
	"returns a run's record by `run_id`.\n"

const closedSetsGuide = "# lumen/1: the closed sets\n\n" +
	"This is the closed-sets guide. Every enumerated vocabulary of lumen/1 is here;\n" +
	"anything not listed does not exist.\n\n" +
	"## Diagnostic codes\n\n" +
	"| code | severity | meaning |\n|---|---|---|\n" +
	"| `bad_step` | error | the scene or a step is malformed: a missing member, a wrong type, `times` outside 0-50 |\n" +
	"| `unknown_step_kind` | error | `do` is not `call`, `if`, `repeat` or `let` |\n" +
	"| `duplicate_id` | error | two steps have the same identifier |\n" +
	"| `reserved_character` | error | a step `id` contains `#` or `/` |\n" +
	"| `unknown_target` | error | `target` (or a trigger's `sensor`) is not a visible callable catalog entry of the right kind |\n" +
	"| `type_error` | error | a `with` member or an `input` declaration does not match its schema or type |\n" +
	"| `bad_expression` | error | an expression or a condition is not grammatical or refers to something not in scope |\n" +
	"| `dim_to_zero` | warning | a `call` sets a fixture's level to 0, which turns it off |\n" +
	"| `constraint` | error | reserved catch-all, used for members lumen/1 does not define |\n" +
	"| `input_binding` | error | reserved: the run request's `input` does not bind to the declared parameters |\n" +
	"| `context_binding` | error | reserved: a `context` was supplied; lumen/1 takes no context |\n\n" +
	"`input_binding` paths point into the request's `input`; `context_binding` has\n" +
	"the path `\"\"`.\n\n" +
	"## Catalog entry kinds\n\n" +
	"| kind | callable | how |\n|---|---|---|\n" +
	"| `fixture` | yes | `with: {\"level\": 0-100}`, or `\"action\": \"read\"` without `with` |\n" +
	"| `sensor` | yes | no `with`; returns a reading |\n" +
	"| `notifier` | yes | `with: {\"message\": string}` |\n" +
	"| `breaker` | yes | `with: {\"state\": \"on\" or \"off\"}` |\n" +
	"| `zone` | no | a grouping label; it has no `input_schema` |\n\n" +
	"## Risk levels\n\n" +
	"| risk | readOnly | destructive | openWorld |\n|---|---|---|---|\n" +
	"| `safe` | true | false | false |\n" +
	"| `write` | false | false | false |\n" +
	"| `external` | false | false | true |\n" +
	"| `destructive` | false | true | false |\n" +
	"| `critical` | false | true | true |\n\n" +
	"An entry carries the most its kind can do. A plan step carries the risk of its\n" +
	"use: reading a fixture (`\"action\": \"read\"`) is `safe`, setting it is `write`;\n" +
	"`if`, `repeat` and `let` steps are `safe`. `max_risk_hints` is the AND/OR\n" +
	"aggregate of the plan steps; `max_risk` is the level with exactly those hints\n" +
	"(`critical` only appears as a plan's `max_risk`).\n\n" +
	"## Scope rules\n\n" +
	"A step's output is addressable as `$.steps.<id>.output` by every step that\n" +
	"comes after it in the document, at any depth, including steps after the\n" +
	"`if` or `repeat` that contains it. Inside a `repeat` body the most recent\n" +
	"iteration's output is seen. A step that did not run (an arm not taken, a\n" +
	"loop run zero times) has output `null`. `$.loop.<id>.index` (1-based) is\n" +
	"addressable only inside that `repeat`'s body. An `if` step's output is\n" +
	"`{\"took\": \"then\" | \"else\"}`, a `repeat` step's `{\"iterations\": n}`, a `let`\n" +
	"step's its value.\n\n" +
	"## Step identifiers\n\n" +
	"A step without `id` gets one generated from its position: `step-N` for the\n" +
	"N-th top-level step, `<parent id>-then-N`, `<parent id>-else-N` and\n" +
	"`<parent id>-body-N` inside an `if` or a `repeat` (N is 1-based). The same\n" +
	"scene always gets the same identifiers, in the plan and in the trace.\n" +
	"Inside a loop body, trace identifiers carry `#n` per enclosing loop.\n\n" +
	"## Parameter binding (input)\n\n" +
	"`lumen_run`'s `input` binds by name to the scene's `input` declaration: every\n" +
	"declared parameter is required and must have its type (`number`, `string`,\n" +
	"`boolean`); undeclared members are refused. A scene with no `input`\n" +
	"declaration refuses any `input`. Failures are `validation_error` Runs with\n" +
	"`input_binding` diagnostics.\n\n" +
	"## Run-level outcome statuses\n\n" +
	"| status | ok | side effects | meaning |\n|---|---|---|---|\n" +
	"| `success` | true | as planned | the scene completed |\n" +
	"| `validation_error` | false | none | refused: the scene, input or context is invalid |\n" +
	"| `catalog_drift` | false | none | refused: `expected_catalog_version` is not current |\n" +
	"| `promotion_drift` | false | none | reserved; lumen/1 has no promoted programs |\n" +
	"| `partial` | false | may have occurred | execution began and stopped at the 200-step bound |\n" +
	"| `error` | false | may have occurred | a step failed (for example a level out of range at run time) |\n" +
	"| `no_power` | false | may have occurred | a fixture was set while the main breaker was off |\n\n" +
	"## Step-level outcome statuses\n\n" +
	"| status | ok | side effects | meaning |\n|---|---|---|---|\n" +
	"| `success` | true | as planned | the step completed |\n" +
	"| `error` | false | none for this step | the step failed |\n" +
	"| `no_power` | false | none for this step | the fixture has no power |\n" +
	"| `partial` | false | may have occurred | a `repeat` stopped by the step bound |\n\n" +
	"## Trace levels and truncation\n\n" +
	"`full`: every executed step with `input`, `output`, `outcome`, `decisions`.\n" +
	"`summary`: `id`, `calls`, `outcome`, `decisions`, `t_ms`, and `output` only when its\n" +
	"JSON text is at most 64 bytes; a longer output is replaced by the string\n" +
	"`\"<truncated>\"`. Inputs are never carried at `summary`. Control-flow steps\n" +
	"never carry `input` or `output`. A stored Run is recorded at the level of its\n" +
	"inline trace, or at `full` when it ran with `trace_level: \"none\"`.\n\n" +
	"An `if` step carries one decision, `took` being `then` or `else`; an `if`\n" +
	"without `else` whose condition is false takes `else`, an arm with no steps.\n" +
	"A `repeat` step carries one decision per evaluation: `continue` before each\n" +
	"iteration and a final `exit`.\n\n" +
	"## The run-level output\n\n" +
	"For `mode: \"immediate\"`, `output` is the scene's `output` mapping evaluated after\n" +
	"the last step; a scene without `output` gives no `output` member. For\n" +
	"`mode: \"deploy\"`, `output` is `{\"automation\": \"<id>\"}`, the installed\n" +
	"automation (not a catalog entry, not runnable by `program_ref`); its trace is\n" +
	"an installation trace with the single entry `install`. A test run\n" +
	"(`test_run: true`, either mode) installs nothing and needs no trigger: it\n" +
	"evaluates the steps against the current house without touching any light,\n" +
	"traces them like an immediate run, and returns the `output` mapping.\n\n" +
	"## Bounds\n\n" +
	"At most 100 declared steps, nesting depth 8 and a 64 KiB scene; beyond them\n" +
	"validation answers the request error `bounds_exceeded`. A run stops after 200\n" +
	"executed steps with status `partial`.\n"

const examplesGuide = "# lumen/1: worked scenes\n\n" +
	"## Light the hall when it is dark\n\n" +
	"```json\n" +
	"{\n" +
	"  \"steps\": [\n" +
	"    { \"id\": \"lux\", \"do\": \"call\", \"target\": \"sensor.lux_hall\" },\n" +
	"    { \"id\": \"dark\", \"do\": \"if\", \"when\": { \"lt\": [\"$.steps.lux.output.lux\", 200] },\n" +
	"      \"then\": [ { \"id\": \"on\", \"do\": \"call\", \"target\": \"lamp.hall\", \"with\": { \"level\": 80 } } ],\n" +
	"      \"else\": [ { \"id\": \"off\", \"do\": \"call\", \"target\": \"lamp.hall\", \"with\": { \"level\": 5 } } ] }\n" +
	"  ]\n" +
	"}\n" +
	"```\n\n" +
	"## Blink the porch light three times\n\n" +
	"```json\n" +
	"{ \"steps\": [ { \"id\": \"blink\", \"do\": \"repeat\", \"times\": 3, \"body\": [\n" +
	"  { \"id\": \"up\", \"do\": \"call\", \"target\": \"lamp.porch\", \"with\": { \"level\": 100 } },\n" +
	"  { \"id\": \"down\", \"do\": \"call\", \"target\": \"lamp.porch\", \"with\": { \"level\": 10 } } ] } ] }\n" +
	"```\n\n" +
	"## A parameterised scene\n\n" +
	"```json\n" +
	"{ \"input\": { \"level\": \"number\" },\n" +
	"  \"steps\": [ { \"id\": \"desk\", \"do\": \"call\", \"target\": \"lamp.desk\", \"with\": { \"level\": \"$.input.level\" } } ],\n" +
	"  \"output\": { \"desk\": \"$.steps.desk.output.level\" } }\n" +
	"```\n\n" +
	"Run it with `\"input\": {\"level\": 30}`.\n\n" +
	"## An automation (mode deploy)\n\n" +
	"```json\n" +
	"{ \"trigger\": { \"sensor\": \"sensor.motion_hall\" },\n" +
	"  \"steps\": [ { \"id\": \"on\", \"do\": \"call\", \"target\": \"lamp.hall\", \"with\": { \"level\": 60 } } ] }\n" +
	"```\n"
