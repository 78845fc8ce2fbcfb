package provider

import (
	"context"
	"runtime"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// BenchmarkEncodeMemberships100k reads 100,000 memberships from the sandbox
// once, then measures encoding them to the state's msgpack, reporting the
// encoded size and the heap the records and the encoding hold.
func BenchmarkEncodeMemberships100k(b *testing.B) {
	sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: 100_000})
	url := sb.Start()
	defer sb.Close()
	c, err := client.New(client.Config{BaseURL: url, Token: sandbox.DefaultToken})
	if err != nil {
		b.Fatal(err)
	}
	state, err := membershipsDef.readState(context.Background(), c, emptyConfig(membershipsDef))
	if err != nil {
		b.Fatal(err)
	}
	sb.Close()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.Logf("heap after reading 100,000 records: %.0f MB", float64(m.HeapAlloc)/(1<<20))
	b.ReportAllocs()
	var size int
	for b.Loop() {
		out, err := encodeState(membershipsDef.attrs, state)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(size)/(1<<20), "MB-msgpack")
}
