package tfattr

import (
	"strings"
	"testing"
)

func TestParseDurationSaysWhatIsWrong(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]string{
		"0s":  `"0s" is no time at all: write a duration above zero`,
		"-5s": `"-5s" is no time at all`,
		"60":  `"60" is not a duration: write a positive number with a unit`,
		"1m ": `"1m " is not a duration`,
	} {
		if _, err := ParseDuration(v); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ParseDuration(%q): %v, want %q…", v, err, want)
		}
	}
	if d, err := ParseDuration("90s"); err != nil || d.Seconds() != 90 {
		t.Errorf("ParseDuration(90s) = %v, %v", d, err)
	}
}
