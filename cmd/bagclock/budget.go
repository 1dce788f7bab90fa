package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/bagclock/bagclock/bagread"
)

// decodeBudget is the --decode-budget of the running command: the most
// one decompressed chunk, MESSAGE-mode frame, record or row may take.
var decodeBudget int64 = bagread.DefaultMaxRecordBytes

// budgetFlag registers --decode-budget on fs (and resets it to the
// default, so commands run one after another in tests do not share it).
func budgetFlag(fs *pflag.FlagSet) {
	decodeBudget = bagread.DefaultMaxRecordBytes
	fs.Var((*byteSize)(&decodeBudget), "decode-budget",
		"memory one decompressed chunk, compressed message or record may take; larger ones are skipped and reported (e.g. 512MiB, 2GiB; scan -j N uses up to N budgets)")
}

// bagOptions are the bagread options every command opens bags with.
func bagOptions() bagread.Options {
	return bagread.Options{TempDir: scratchDir(), MaxRecordBytes: decodeBudget}
}

// byteSize is a size flag: a byte count with an optional KiB, MiB or GiB
// (or KB, MB, GB, also powers of two) suffix.
type byteSize int64

func (b *byteSize) String() string {
	v := int64(*b)
	switch {
	case v > 0 && v%(1<<30) == 0:
		return strconv.FormatInt(v>>30, 10) + "GiB"
	case v > 0 && v%(1<<20) == 0:
		return strconv.FormatInt(v>>20, 10) + "MiB"
	}
	return strconv.FormatInt(v, 10)
}

func (b *byteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSuffix(t, u.suffix), u.m
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n <= 0 || n > (1<<46)/mult {
		return fmt.Errorf("want a positive size such as 256MiB or 2GiB")
	}
	if n*mult < 1<<20 {
		return fmt.Errorf("%s is below 1MiB, less than any real chunk", s)
	}
	*b = byteSize(n * mult)
	return nil
}

func (b *byteSize) Type() string { return "size" }
