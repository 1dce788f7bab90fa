package objstore

import (
	"math/rand/v2"
	"testing"

	"github.com/bagclock/bagclock/internal/s3test"
)

// putRandom stores n random bytes (the same for the same seed) as key on
// srv, points the S3 environment at it, and returns the bytes and the
// object's location.
func putRandom(t *testing.T, srv *s3test.Server, key string, n int, seed uint64) ([]byte, Location) {
	t.Helper()
	data := make([]byte, n)
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	srv.PutBytes(t, key, data)
	srv.SetEnv(t, "")
	loc, err := ParseURL(srv.URL(key))
	if err != nil {
		t.Fatal(err)
	}
	return data, loc
}
