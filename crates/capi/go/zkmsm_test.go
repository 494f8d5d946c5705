package zkmsm

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// cli runs target/release/zkmsm and returns its last stdout line.
func cli(t *testing.T, args ...string) string {
	t.Helper()
	bin, _ := filepath.Abs("../../../target/release/zkmsm")
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("zkmsm %v: %v", args, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

func TestSameAsCLI(t *testing.T) {
	for _, c := range []struct {
		name  string
		curve Curve
	}{{"bls12-377", BLS12_377}, {"bls12-381", BLS12_381}, {"bn254", BN254},
		{"bls12-377", BLS12_377.G2()}, {"bls12-381", BLS12_381.G2()}, {"bn254", BN254.G2()}} {
		group := "g1"
		if c.curve == c.curve.G2() {
			group = "g2"
		}
		for _, format := range []string{"compressed", "uncompressed"} {
			dir := t.TempDir()
			p, s := filepath.Join(dir, "p.bin"), filepath.Join(dir, "s.bin")
			g := []string{"--curve", c.name, "--group", group}
			cli(t, append([]string{"gen", "--log-n", "10", "--points", p, "--scalars", s, "--point-format", format}, g...)...)
			want := cli(t, append([]string{"msm", "--points", p, "--scalars", s}, g...)...)
			if len(want) != 2*resultSize(c.curve) {
				t.Fatalf("%s %s: the CLI printed %d hex digits, a result is %d bytes", c.name, group, len(want), resultSize(c.curve))
			}
			points, _ := os.ReadFile(p)
			scalars, _ := os.ReadFile(s)
			f := Compressed
			if format == "uncompressed" {
				f = Uncompressed
			}
			ctx, err := NewContext(c.curve, points, f, 1, true)
			if err != nil {
				t.Fatal(err)
			}
			if ctx.Len() != 1024 {
				t.Fatalf("len %d", ctx.Len())
			}
			for i := 0; i < 2; i++ {
				got, err := ctx.MSM(scalars)
				if err != nil || hex.EncodeToString(got) != want {
					t.Fatalf("%s %s %s: context MSM %x, %v; CLI %s", c.name, group, format, got, err, want)
				}
			}
			ctx.Close()
			got, err := MSM(c.curve, points, Detect, scalars)
			if err != nil || hex.EncodeToString(got) != want {
				t.Fatalf("%s %s %s: one-shot %x, %v; CLI %s", c.name, group, format, got, err, want)
			}
			// the same scalars big-endian: each 32-byte word reversed
			be := make([]byte, len(scalars))
			for i := 0; i < len(scalars); i += 32 {
				for k := 0; k < 32; k++ {
					be[i+k] = scalars[i+31-k]
				}
			}
			got, err = MSM(c.curve, points, f|ScalarsBigEndian, be)
			if err != nil || hex.EncodeToString(got) != want {
				t.Fatalf("%s %s %s: big-endian one-shot %x, %v; CLI %s", c.name, group, format, got, err, want)
			}
		}
	}
}

func TestErrorsCarryIndexAndOffset(t *testing.T) {
	dir := t.TempDir()
	p, s := filepath.Join(dir, "p.bin"), filepath.Join(dir, "s.bin")
	cli(t, "gen", "--curve", "bls12-377", "--log-n", "4", "--points", p, "--scalars", s)
	points, _ := os.ReadFile(p)
	scalars, _ := os.ReadFile(s)
	ctx, err := NewContext(BLS12_377, points, Compressed, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	for i := 7 * 32; i < 8*32; i++ {
		scalars[i] = 0xff
	}
	_, err = ctx.MSM(scalars)
	var e *Error
	if !errors.As(err, &e) || e.Index != 7 || e.Offset != 7*32 || !strings.Contains(e.Message, "scalar 7") {
		t.Fatalf("expected scalar 7 at offset 224, got %v", err)
	}
	points[2*48] ^= 0x3c
	_, err = NewContext(BLS12_377, points, Compressed, 1, true)
	if !errors.As(err, &e) || e.Index != 2 || e.Offset != 2*48 {
		t.Fatalf("expected point 2 at offset 96, got %v", err)
	}
}

// Close while other goroutines run MSMs on the context, and two Close calls
// at once: every MSM returns the right answer or ErrClosed, the context is
// freed once (a use after free or a double free would crash the test).
func TestCloseWhileMSMsRun(t *testing.T) {
	dir := t.TempDir()
	p, s := filepath.Join(dir, "p.bin"), filepath.Join(dir, "s.bin")
	cli(t, "gen", "--curve", "bls12-381", "--log-n", "12", "--points", p, "--scalars", s)
	want := cli(t, "msm", "--curve", "bls12-381", "--points", p, "--scalars", s)
	points, _ := os.ReadFile(p)
	scalars, _ := os.ReadFile(s)
	for round := 0; round < 3; round++ {
		ctx, err := NewContext(BLS12_381, points, Compressed, 1, true)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		started := make(chan struct{}, 4)
		results := make(chan error, 4*64)
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				started <- struct{}{}
				for i := 0; i < 64; i++ {
					got, err := ctx.MSM(scalars)
					if err == ErrClosed {
						return
					}
					if err != nil || hex.EncodeToString(got) != want {
						results <- fmt.Errorf("MSM %x, %v; CLI %s", got, err, want)
						return
					}
				}
			}()
		}
		for g := 0; g < 4; g++ {
			<-started
		}
		var closers sync.WaitGroup
		for c := 0; c < 2; c++ {
			closers.Add(1)
			go func() { defer closers.Done(); ctx.Close() }()
		}
		closers.Wait()
		wg.Wait()
		close(results)
		for err := range results {
			t.Fatal(err)
		}
		if _, err := ctx.MSM(scalars); err != ErrClosed {
			t.Fatalf("MSM after Close: %v, expected ErrClosed", err)
		}
		if ctx.Len() != 0 {
			t.Fatalf("Len after Close: %d", ctx.Len())
		}
	}
}
