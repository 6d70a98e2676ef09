package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/report"
)

func TestTextColourOnlyWhenAsked(t *testing.T) {
	run := awkwardRun()
	var plain, colour bytes.Buffer
	if err := report.Text(&plain, run, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := report.Text(&colour, run, report.TextOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("uncoloured text has escapes: %q", plain.String())
	}
	for _, want := range []string{"\x1b[1;31merror\x1b[0m", "\x1b[1;33mwarning\x1b[0m", "\x1b[1;36minfo\x1b[0m"} {
		if !strings.Contains(colour.String(), want) {
			t.Errorf("coloured text lacks %q: %q", want, colour.String())
		}
	}
	stripped := strings.NewReplacer("\x1b[1;31m", "", "\x1b[1;33m", "", "\x1b[1;36m", "", "\x1b[0m", "").Replace(colour.String())
	if stripped != plain.String() {
		t.Errorf("colour changed the text:\n%s\n%s", stripped, plain.String())
	}
}
