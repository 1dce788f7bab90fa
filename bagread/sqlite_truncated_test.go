package bagread

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

type readMsg struct {
	pos  int64
	sum  [32]byte
	topc string
}

func readTrunc(t *testing.T, b *Bag, order Order) ([]readMsg, *Iterator) {
	t.Helper()
	it := b.Messages(ReadOptions{Order: order})
	var out []readMsg
	for it.Next() {
		m := it.Message()
		out = append(out, readMsg{m.Position, sha256.Sum256(m.Data), m.Topic})
	}
	if err := it.Err(); err != nil {
		t.Fatalf("iterator error: %v", err)
	}
	it.Close()
	return out, it
}

func fileSum(t *testing.T, p string) [32]byte {
	t.Helper()
	d, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(d)
}

func TestSQLiteTruncated(t *testing.T) {
	src := testenv.SharedBag(t, "tb3-walker-humble-nitesh")
	ref, err := Open(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := readTrunc(t, ref, RecordOrder)
	ref.Close()
	if len(want) != 8542 {
		t.Fatalf("intact bag: %d messages, want 8542", len(want))
	}
	cases := []struct {
		name string
		cut  func(size int64) int64
		// readable is what the sqlite3 CLI reads (ORDER BY id) from the
		// same patched copy: at 0.3 and 0.5 the first leaf pages of the
		// messages b-tree lie past the cut, so nothing is readable and
		// Open must fail with an error naming the file.
		readable int
	}{
		{"0.3", func(n int64) int64 { return n * 3 / 10 / 4096 * 4096 }, 0},
		{"0.5", func(n int64) int64 { return n / 2 / 4096 * 4096 }, 0},
		{"0.67", func(n int64) int64 { return n * 2 / 3 }, 5678},
		{"0.9", func(n int64) int64 { return n * 9 / 10 / 4096 * 4096 }, 7699},
		{"0.9 non-page", func(n int64) int64 { return n*9/10/4096*4096 + 1000 }, 7699},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := testenv.CopyTree(t, src)
			db := filepath.Join(dir, "rosbag2_2022_12_06-21_57_13_0.db3")
			st, err := os.Stat(db)
			if err != nil {
				t.Fatal(err)
			}
			cut := tc.cut(st.Size())
			if err := os.Truncate(db, cut); err != nil {
				t.Fatal(err)
			}
			before := fileSum(t, db)
			b, err := Open(dir, Options{TempDir: t.TempDir()})
			if tc.readable == 0 {
				if err == nil {
					b.Close()
					t.Fatal("Open succeeded with nothing readable")
				}
				if !strings.Contains(err.Error(), db) || !strings.Contains(err.Error(), "malformed") {
					t.Fatalf("error does not name the file and cause: %v", err)
				}
				if fileSum(t, db) != before {
					t.Fatal("the cut file changed")
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer b.Close()
			rec := b.Files[0].Recovery
			if rec == nil || !strings.Contains(rec.Reason, "db3 truncated at byte") || rec.Offset != cut {
				t.Fatalf("Recovery = %+v, want truncation at %d", rec, cut)
			}
			for _, order := range []Order{RecordOrder, TimeOrder} {
				got, it := readTrunc(t, b, order)
				if len(got) != tc.readable {
					t.Fatalf("order %v: read %d, want %d", order, len(got), tc.readable)
				}
				if uint64(len(got)) != b.Files[0].MessageCount || rec.Recovered != uint64(len(got)) {
					t.Fatalf("order %v: read %d, File.MessageCount %d, Recovered %d", order, len(got), b.Files[0].MessageCount, rec.Recovered)
				}
				perTopic := map[string]uint64{}
				for i, m := range got {
					if m != want[i] {
						t.Fatalf("order %v: message %d is rowid %d, intact file has rowid %d (or bytes differ)", order, i, m.pos, want[i].pos)
					}
					perTopic[m.topc]++
				}
				for _, tp := range b.Topics {
					if tp.MessageCount != perTopic[tp.Name] {
						t.Errorf("topic %s: count %d, read %d", tp.Name, tp.MessageCount, perTopic[tp.Name])
					}
				}
				if len(it.Problems()) == 0 {
					t.Errorf("order %v: no Problem reported", order)
				}
			}
			t.Logf("cut at %d: %s", cut, rec.Reason)
			if fileSum(t, db) != before {
				t.Fatal("the cut file changed")
			}
		})
	}
	t.Run("first pages", func(t *testing.T) {
		dir := testenv.CopyTree(t, src)
		db := filepath.Join(dir, "rosbag2_2022_12_06-21_57_13_0.db3")
		if err := os.Truncate(db, 2048); err != nil {
			t.Fatal(err)
		}
		b, err := Open(dir, Options{TempDir: t.TempDir()})
		if err == nil {
			b.Close()
			t.Fatal("Open of a 2 KiB db3 succeeded")
		}
		if !strings.Contains(err.Error(), db) {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}
