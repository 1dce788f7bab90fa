package finding

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

func ok(k Kind, sev Severity, lvl Level) Finding {
	return Finding{Kind: k, Severity: sev, Confidence: Confidence{Level: lvl, Basis: "b"}, Sentence: "s"}
}

// TestSort: severity first, then confidence, then kind order; emission
// order breaks ties.
func TestSort(t *testing.T) {
	a := ok(Stale, Warning, High)
	a.Detail = "first"
	b := ok(Stale, Warning, High)
	b.Detail = "second"
	fs := []Finding{ok(TFTree, Info, High), a, ok(Drop, Warning, Low), ok(Skew, Error, Low), b, ok(Drop, Error, Low)}
	Sort(fs)
	var got []string
	for _, f := range fs {
		got = append(got, string(f.Kind)+"/"+f.Severity.String()+"/"+f.Confidence.Level.String()+f.Detail)
	}
	want := []string{"drop/error/low", "skew/error/low", "stale/warning/highfirst", "stale/warning/highsecond", "drop/warning/low", "tf-tree/info/high"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestCategories: each kind once, in Kinds order, whatever the order of
// the findings; [] for none.
func TestCategories(t *testing.T) {
	for _, tc := range []struct {
		in   []Finding
		want []string
	}{
		{nil, []string{}},
		{[]Finding{ok(Damage, Error, High), ok(Drop, Info, Low), ok(Damage, Info, Low)}, []string{"drop", "damage"}},
		{[]Finding{ok(Stale, Error, High), ok(ClockMismatch, Info, Low), ok(MissingLink, Info, Low), ok(Jump, Warning, Low)},
			[]string{"missing-link", "clock-mismatch", "jump", "stale"}},
	} {
		if got := Categories(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Categories = %q, want %q", got, tc.want)
		}
	}
}

// TestKinds: twelve distinct valid kinds; anything else is not valid.
func TestKinds(t *testing.T) {
	seen := map[Kind]bool{}
	for _, k := range Kinds() {
		if seen[k] || !k.Valid() {
			t.Errorf("kind %q repeated or invalid", k)
		}
		seen[k] = true
	}
	if len(seen) != 13 {
		t.Errorf("%d kinds, want 13", len(seen))
	}
	for _, k := range []Kind{"", "drops", "Drop"} {
		if k.Valid() {
			t.Errorf("%q is valid", k)
		}
	}
}

// TestValidate: what every finding must have.
func TestValidate(t *testing.T) {
	good := ok(Drop, Error, High)
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*Finding){
		"kind":     func(f *Finding) { f.Kind = "nope" },
		"severity": func(f *Finding) { f.Severity = 0 },
		"level":    func(f *Finding) { f.Confidence.Level = 9 },
		"basis":    func(f *Finding) { f.Confidence.Basis = "" },
		"sentence": func(f *Finding) { f.Sentence = "" },
	} {
		f := good
		edit(&f)
		if err := f.Validate(); err == nil || !strings.Contains(err.Error(), "drop") && name != "kind" {
			t.Errorf("%s: Validate = %v", name, err)
		}
	}
}

// TestJSON: names for severity and level, lists never null after
// Normalize, a value that is not finite as null, and a round trip.
func TestJSON(t *testing.T) {
	f := Normalize(ok(ClockStep, Error, Medium))
	f.Numbers = append(f.Numbers, N("step", -0.25, "s"), N("rate", math.NaN(), "Hz"))
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"severity":"error"`, `"level":"medium"`, `"topics":[]`, `"nodes":[]`,
		`{"name":"step","value":-0.25,"unit":"s"}`, `{"name":"rate","value":null,"unit":"Hz"}`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
	var back Finding
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Severity != Error || back.Confidence.Level != Medium || back.Kind != ClockStep {
		t.Errorf("round trip: %+v", back)
	}
	if v, has := back.Number("step"); !has || v != -0.25 {
		t.Errorf("Number(step) = %v, %v", v, has)
	}
	if _, err := json.Marshal(Finding{Kind: Drop}); err == nil {
		t.Error("a finding without severity marshals")
	}
	var s Severity
	if err := s.UnmarshalText([]byte("fatal")); err == nil {
		t.Error("unknown severity read")
	}
}
