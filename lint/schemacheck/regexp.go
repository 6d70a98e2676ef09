package schemacheck

import (
	"regexp"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSON Schema's pattern and patternProperties are ECMA-262 regular
// expressions, and the spec's own official schema writes its retention
// duration with a look-ahead that Go's RE2 cannot compile. A schema that
// RE2 rejects is therefore not invalid: Compile hands the library an
// engine that tries RE2 first and dlclark/regexp2 in ECMAScript mode after.
//
// RE2 first, not regexp2 alone, for three reasons. Almost every published
// pattern compiles in RE2, so the common run never builds a regexp2 program
// at all. RE2 matches in linear time, which matters for patterns and
// values that come from servers the user does not control, where a
// backtracking engine can be made to run for minutes. And where the two
// engines accept the same text they agree on its meaning except for corner
// cases (ECMA's \s also matches Unicode spaces, its "." also stops at \r),
// so a pattern RE2 compiles keeps the findings it always had.

// ecmaMatchTimeout bounds one regexp2 match. A match that runs out of time
// counts as a match: the linter cannot tell, and a false error is worse
// than a missed one.
const ecmaMatchTimeout = 100 * time.Millisecond

// ecmaRegexp adapts a regexp2 program to the library's Regexp.
type ecmaRegexp struct{ re *regexp2.Regexp }

func (r ecmaRegexp) MatchString(s string) bool {
	ok, err := r.re.MatchString(s)
	return ok || err != nil
}

func (r ecmaRegexp) String() string { return r.re.String() }

// compileECMA compiles s as an ECMA-262 regular expression.
func compileECMA(s string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = ecmaMatchTimeout
	return ecmaRegexp{re}, nil
}

// regexps are the patterns of one schema, compiled once by the scan and
// handed to the library by its engine hook instead of being compiled again.
type regexps map[string]jsonschema.Regexp

// compile returns the program for pattern s, RE2's when RE2 compiles it
// and regexp2's otherwise, or nil when neither does; err is RE2's error
// and ecmaErr regexp2's.
func (rs regexps) compile(s string) (re jsonschema.Regexp, err, ecmaErr error) {
	if re := rs[s]; re != nil {
		return re, nil, nil
	}
	if g, gerr := regexp.Compile(s); gerr == nil {
		re = g
	} else if re, ecmaErr = compileECMA(s); ecmaErr != nil {
		return nil, gerr, ecmaErr
	} else {
		err = gerr
	}
	if rs != nil {
		rs[s] = re
	}
	return re, err, nil
}

// engine is the library's regexp-engine hook for one compilation.
func (rs regexps) engine(s string) (jsonschema.Regexp, error) {
	re, err, ecmaErr := rs.compile(s)
	if re == nil {
		if ecmaErr != nil {
			return nil, ecmaErr
		}
		return nil, err
	}
	return re, nil
}

// unsupportedECMA reports whether a pattern neither engine compiles may
// still be a valid ECMA-262 expression: regexp2 knows Unicode property
// escapes only by their short names (\p{L}, not \p{Letter} or
// \p{Script=Greek}), and RE2 knows no long names either. Such a pattern is
// left unchecked rather than called invalid.
func unsupportedECMA(s string) bool {
	return strings.Contains(s, `\p{`) || strings.Contains(s, `\P{`)
}
