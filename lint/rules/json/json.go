package json

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// The JSON-text rules report what the parser found; they see every file of
// the snapshot, so a --manifest file's defects are reported too (the engine
// drops the repeats).
func jsonRule(code source.ProblemCode, r *lint.Rule) *lint.Rule {
	return jsonRuleOf(func(f *source.File, pr source.Problem) bool { return pr.Code == code }, r)
}

// jsonRuleOf reports the parser's problems that match.
func jsonRuleOf(match func(*source.File, source.Problem) bool, r *lint.Rule) *lint.Rule {
	r.Syntax = true
	if r.Scope == "" && r.Severity == lint.Error {
		r.Scope = jsonScope
	}
	r.Check = func(p *lint.Pass) {
		for _, f := range p.Snap.Files {
			for _, pr := range f.Problems {
				if match(f, pr) {
					p.ReportProblem(f, pr.Start, pr.End, pointerAt(f, pr.Start), "%s", pr.Message)
				}
			}
		}
	}
	return r
}

// jsonScope is what every error rule of the family binds.
const jsonScope = "The bytes of every input file, Pilotage or not: text that is not JSON cannot be classified or judged, so it fails closed rather than pass unread. A .jsonl file, and a capture whose documents each start on a line of their own, is read as one JSON text per document. Every manifest version."

// escapedSurrogate reports whether an invalid-UTF-8 problem is a \uXXXX
// escape of a lone surrogate rather than bytes that are not UTF-8: the
// escape is ASCII, so the text is UTF-8, and RFC 8259's grammar admits it.
func escapedSurrogate(f *source.File, pr source.Problem) bool {
	return pr.Code == source.ProblemInvalidUTF8 && pr.Start < len(f.Data) && f.Data[pr.Start] == '\\'
}

// pointerAt finds the pointer of the innermost value containing a byte
// offset, for problems the parser found inside a document it kept.
func pointerAt(f *source.File, off int) string {
	for _, d := range f.Docs {
		n := d.Root
		if off < int(n.Start) || off >= int(n.End) {
			continue
		}
		for {
			var next *source.Node
			for _, k := range n.Kids() {
				lo := int(k.Start)
				if k.Parent.Kind == source.Object {
					lo = int(k.KeyStart())
				}
				if off >= lo && off < int(k.End) {
					next = k
					break
				}
			}
			if next == nil {
				return n.Pointer()
			}
			n = next
		}
	}
	return ""
}

func jsonRules() []*lint.Rule {
	// Each cites the RFC 8259 section its defect breaks and takes that
	// RFC's keyword: these are JSON's rules, which the Pilotage text does
	// not restate.
	return []*lint.Rule{
		jsonRule(source.ProblemSyntax, &lint.Rule{
			ID: "json-syntax", Severity: lint.Error, Spec: "RFC 8259 §2, §10",
			Quote:        "A JSON generator produces JSON text.  The resulting text MUST strictly conform to the JSON grammar.",
			Keyword:      "MUST",
			Summary:      "The file is not well-formed JSON.",
			Doc:          "Every MCP message and every surface pilotage-lint reads is JSON. A syntax error stops the document at that point: nothing after it can be checked, and an MCP client would reject the message outright. The finding sits at the first byte that breaks the grammar.",
			Bad:          `{"pilotage": "1.1", "languages": [}`,
			Good:         `{"pilotage": "1.1", "languages": []}`,
			NoExceptions: "RFC 8259's one widening sentence, §9 \"A JSON parser MAY accept non-JSON forms or extensions\", lets a receiver accept more; it does not let a generator produce it, and pilotage-lint reads the text as what the server sent. Documents that each start on a line of their own are read as JSON Lines, not as a syntax error.",
		}),
		jsonRule(source.ProblemEmpty, &lint.Rule{
			ID: "json-empty", Severity: lint.Error, Spec: "RFC 8259 §2, §10",
			Quote:        "A JSON generator produces JSON text.  The resulting text MUST strictly conform to the JSON grammar.",
			Keyword:      "MUST",
			Summary:      "The file holds no JSON value.",
			Doc:          "An empty or whitespace-only file is usually a failed capture (a server that crashed before answering, a redirect that wrote nothing). It is reported so that CI does not pass on a snapshot that checks nothing.",
			Bad:          "(an empty file)",
			Good:         `{"tools": []}`,
			NoExceptions: "A JSON text is a serialized value (RFC 8259 §2: JSON-text = ws value ws), and no sentence admits a text without one; an empty input is also one that cannot be judged, which fails closed.",
		}),
		jsonRule(source.ProblemTrailing, &lint.Rule{
			ID: "json-trailing-data", Severity: lint.Error, Spec: "RFC 8259 §2, §10",
			Quote:        "A JSON generator produces JSON text.  The resulting text MUST strictly conform to the JSON grammar.",
			Keyword:      "MUST",
			Summary:      "Data follows the end of the JSON document.",
			Doc:          "A JSON document is one value. Text after it on the same line is either a truncated second message or garbage from the capture; JSON parsers disagree on whether to ignore it. Put each message on its own line to make a JSON Lines capture.",
			Bad:          `{"tools": []} }`,
			Good:         `{"tools": []}`,
			NoExceptions: "RFC 8259 §2 makes a JSON text one value and §9's \"A JSON parser MAY accept non-JSON forms or extensions\" excuses receivers only. Documents that each start on a line of their own (JSON Lines, or a capture saved as .json) are separate texts, not trailing data: see the good-lines fixture.",
		}),
		jsonRule(source.ProblemDuplicateKey, &lint.Rule{
			ID: "json-duplicate-key", Severity: lint.Warning, Spec: "RFC 8259 §4",
			Quote:   "The names within an object SHOULD be unique.",
			Keyword: "SHOULD",
			Summary: "A member name appears twice in one object.",
			Doc:     "RFC 8259 says names SHOULD be unique and I-JSON (RFC 7493 §2.3), the profile for interoperable messages, says they MUST be; MCP SDKs disagree on which duplicate wins: Go's encoding/json keeps the last, some JavaScript and Python paths keep the first, and strict parsers reject the message. An agent and a Host may therefore read different manifests from the same bytes.",
			Bad:     `{"pilotage": "1.0", "pilotage": "1.1"}`,
			Good:    `{"pilotage": "1.1"}`,
		}),
		jsonRuleOf(func(f *source.File, pr source.Problem) bool {
			return pr.Code == source.ProblemInvalidUTF8 && !escapedSurrogate(f, pr)
		}, &lint.Rule{
			ID: "json-invalid-utf8", Severity: lint.Error, Spec: "RFC 8259 §8.1",
			Quote:   "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8 [RFC3629].",
			Keyword: "MUST",
			Summary: "The text contains bytes that are not valid UTF-8.",
			Doc:     "JSON exchanged between systems MUST be UTF-8 (RFC 8259 §8.1). Invalid bytes are replaced or rejected depending on the receiver, so tool descriptions and guide text may reach the agent corrupted. The finding gives the position of the first bad byte of each run, and names the encoding when the whole file is in another one: UTF-16 or UTF-32 (with or without a byte-order mark; Windows PowerShell's > writes UTF-16LE), Latin-1 or Windows-1252, or binary data. A UTF-16, UTF-32 or binary file is not read at all, so this one finding stands for everything in it, whatever its Pilotage signal. An escaped lone surrogate (\\ud800) is ASCII text the grammar admits; json-lone-surrogate names it.",
			Bad:     "{\"description\": \"caf\\xe9\"}   (Latin-1 byte)",
			Good:    `{"description": "café"}`,
			Exceptions: []lint.Exception{
				{Spec: "RFC 8259 §8.2", Quote: "However, the ABNF in this specification allows member names and string values to contain bit sequences that cannot encode Unicode characters; for example, \"\\uDEAD\" (a single unpaired UTF-16 surrogate).", Fixture: "good-lone-surrogate-escape"},
			},
		}),
		jsonRuleOf(escapedSurrogate, &lint.Rule{
			ID: "json-lone-surrogate", Severity: lint.Info, Spec: "RFC 8259 §8.2",
			Keyword: "",
			Summary: "A string escapes a lone UTF-16 surrogate, which stands for no Unicode character.",
			Doc:     "RFC 8259's grammar admits a \\uXXXX escape of a single unpaired surrogate, but the character it would stand for does not exist, and \"the behavior of software that receives JSON texts containing such values is unpredictable\" (RFC 8259 §8.2): some receivers replace it with U+FFFD, some reject the message. The text is valid JSON and valid UTF-8, so this is advice, not a fault: escape the character as a valid surrogate pair or write it as UTF-8.",
			Bad:     `{"server": "caf\u00e9 \ud800"}`,
			Good:    `{"server": "caf\u00e9 \ud83d\ude00"}`,
		}),
		jsonRule(source.ProblemBOM, &lint.Rule{
			ID: "json-bom", Severity: lint.Info, Spec: "RFC 8259 §8.1",
			Quote:   "In the interests of interoperability, implementations that parse JSON texts MAY ignore the presence of a byte order mark rather than treating it as an error.",
			Keyword: "",
			Summary: "The file starts with a UTF-8 byte-order mark, which pilotage-lint reads past.",
			Doc:     "RFC 8259 §8.1 forbids a byte-order mark at the start of a networked-transmitted JSON text and lets a parser ignore one; pilotage-lint does. A file on disk carries the mark of whatever saved it (Windows editors, and Windows PowerShell's Out-File -Encoding utf8, which is how a UTF-16 capture is fixed), not of the bytes the server sent, so the mark says nothing about the server and is advice, not an error: other JSON tools may reject it. Text in UTF-16 or UTF-32, with or without a mark, is json-invalid-utf8.",
			Bad:     "\\uFEFF{\"tools\": []}",
			Good:    `{"tools": []}`,
		}),
		jsonRule(source.ProblemDepth, &lint.Rule{
			ID: "json-depth", Severity: lint.Error, Spec: "RFC 8259 §9",
			Keyword: "",
			Summary: "Values are nested deeper than pilotage-lint's limit.",
			Doc:     "No real MCP surface nests values a thousand levels deep; such a document is hostile or broken, and many parsers overflow their stack on it. pilotage-lint stops reading the document at the limit (1000 levels) and reports where. RFC 8259 §9 lets a parser set this limit and states no requirement on senders, so this is the linter's limit, not a spec violation; it stays an error because the rest of the document was never checked, and a clean exit would claim it was.",
			Bad:     `[[[[[[ ... 100000 levels ... ]]]]]]`,
			Good:    `{"inputSchema": {"type": "object", "properties": {}}}`,
		}),
		jsonRule(source.ProblemNonFinite, &lint.Rule{
			ID: "json-non-finite-number", Severity: lint.Error, Spec: "RFC 8259 §6, §10",
			Quote:        "A JSON generator produces JSON text.  The resulting text MUST strictly conform to the JSON grammar.",
			Keyword:      "MUST",
			Summary:      "NaN or Infinity appears where JSON requires a number.",
			Doc:          "JSON has no NaN or Infinity; some serializers (Python's json by default) emit them anyway, and conforming parsers reject the message. Send null or a string instead.",
			Bad:          `{"t_ms": NaN}`,
			Good:         `{"t_ms": 0}`,
			NoExceptions: "RFC 8259 §6: \"Numeric values that cannot be represented in the grammar below (such as Infinity and NaN) are not permitted.\" No sentence admits them; §9's MAY for parsers does not reach the sender.",
		}),
		jsonRule(source.ProblemNumberRange, &lint.Rule{
			ID: "json-number-range", Severity: lint.Info, Spec: "RFC 8259 §6",
			Keyword: "",
			Summary: "A number is outside the range of a 64-bit float.",
			Doc:     "RFC 8259 §6 warns that numbers beyond IEEE 754 double precision are not interoperable: most receivers turn them into infinity or fail. Opaque large values such as identifiers belong in strings.",
			Bad:     `{"limit": 1e400}`,
			Good:    `{"limit": 100}`,
		}),
	}
}
