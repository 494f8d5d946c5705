// Command groth16-gnark times gnark's Groth16 prover on the SquareChain
// circuit that zkmsm's own Groth16 benchmark (crates/msm/benches/groth16.rs)
// proves: x_0 = 5 (secret), x_{i+1} = x_i * (x_i + i + 3) for i < 2^K, the
// last -public values public inputs.
//
//	go run . -curve bn254 -log-n 16 [-repeat 3] [-warmup 1] [-public 1] [-json]
//
// Steps: compile (r1cs.NewBuilder), groth16.Setup (timed apart), build the
// witness, then -warmup untimed and -repeat timed groth16.Prove calls, each
// proof checked with groth16.Verify (exit 1 if one fails).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/consensys/gnark"
	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/logger"
	"github.com/rs/zerolog"
)

// SquareChain has one multiplication per step: (x_i) * (x_i + (i+3)) =
// x_{i+1}. The last len(Pub) values of the chain are asserted equal to the
// public inputs, which costs one more constraint each (gnark's Mul makes a
// new wire, and AssertIsEqual ties it to the input with 1 * x = pub).
type SquareChain struct {
	X0  frontend.Variable   `gnark:",secret"`
	Pub []frontend.Variable `gnark:",public"`

	steps int
}

// Define implements frontend.Circuit.
func (c *SquareChain) Define(api frontend.API) error {
	first := c.steps - len(c.Pub)
	x := c.X0
	for i := 0; i < c.steps; i++ {
		x = api.Mul(x, api.Add(x, i+3))
		if i >= first {
			api.AssertIsEqual(x, c.Pub[i-first])
		}
	}
	return nil
}

// chain returns x_1 .. x_steps modulo the scalar field's modulus r.
func chain(steps int, r *big.Int) []*big.Int {
	out := make([]*big.Int, steps)
	x := big.NewInt(5)
	t := new(big.Int)
	for i := 0; i < steps; i++ {
		t.Add(x, big.NewInt(int64(i)+3))
		x = new(big.Int).Mul(x, t)
		x.Mod(x, r)
		out[i] = x
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// median is the middle of the sorted times (the upper middle for an even
// count), as in zkmsm's benchmark.
func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

type result struct {
	Curve        string    `json:"curve"`
	LogN         int       `json:"log_n"`
	Constraints  int       `json:"constraints"`
	Public       int       `json:"public"`
	CompileMs    float64   `json:"compile_ms"`
	SetupMs      float64   `json:"setup_ms"`
	Warmup       int       `json:"warmup"`
	ProveMs      []float64 `json:"prove_ms"`
	MedianMs     float64   `json:"median_ms"`
	GnarkVersion string    `json:"gnark_version"`
	Cpus         int       `json:"cpus"`
	Gomaxprocs   int       `json:"gomaxprocs"`
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "groth16-gnark: "+format+"\n", a...)
	os.Exit(1)
}

func main() {
	curveName := flag.String("curve", "bn254", "bn254 or bls12-381")
	logN := flag.Int("log-n", 16, "2^K chain steps (constraints)")
	repeat := flag.Int("repeat", 3, "timed proofs")
	warmup := flag.Int("warmup", 1, "untimed proofs before the timed ones (zkmsm's benchmark does 1)")
	public := flag.Int("public", 1, "public inputs: the last values of the chain")
	asJSON := flag.Bool("json", false, "print one JSON line instead of text")
	verbose := flag.Bool("v", false, "gnark's own log on stderr")
	flag.Parse()

	var curve ecc.ID
	switch *curveName {
	case "bn254":
		curve = ecc.BN254
	case "bls12-381":
		curve = ecc.BLS12_381
	default:
		fail("unknown curve %q (bn254 or bls12-381)", *curveName)
	}
	if *logN < 1 || *logN > 28 {
		fail("-log-n %d out of range 1..28", *logN)
	}
	steps := 1 << *logN
	if *public < 1 || *public > steps {
		fail("-public %d out of range 1..%d", *public, steps)
	}
	if *repeat < 1 || *warmup < 0 {
		fail("-repeat must be at least 1 and -warmup at least 0")
	}
	if *verbose {
		logger.Set(zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, TimeFormat: "15:04:05"}).With().Timestamp().Logger())
	} else {
		logger.Disable()
	}
	say := func(format string, a ...any) {
		if !*asJSON {
			fmt.Printf(format+"\n", a...)
		}
	}
	field := curve.ScalarField()

	say("gnark %s, %s, 2^%d steps, %d public, GOMAXPROCS %d of %d CPUs",
		gnark.Version, *curveName, *logN, *public, runtime.GOMAXPROCS(0), runtime.NumCPU())

	t := time.Now()
	ccs, err := frontend.Compile(field, r1cs.NewBuilder,
		&SquareChain{Pub: make([]frontend.Variable, *public), steps: steps})
	if err != nil {
		fail("compile: %v", err)
	}
	compile := time.Since(t)
	nb := ccs.GetNbConstraints()
	say("compiled: %d constraints (%d steps + %d for the public-input equalities); wires: %d public (with the constant 1), %d secret, %d internal; %.1f ms",
		nb, steps, nb-steps, ccs.GetNbPublicVariables(), ccs.GetNbSecretVariables(), ccs.GetNbInternalVariables(), ms(compile))
	if nb < steps || nb > steps+*public {
		fail("expected %d..%d constraints, got %d", steps, steps+*public, nb)
	}

	t = time.Now()
	pk, vk, err := groth16.Setup(ccs)
	if err != nil {
		fail("setup: %v", err)
	}
	setup := time.Since(t)
	say("setup: %.1f ms", ms(setup))

	values := chain(steps, field)
	assignment := &SquareChain{X0: 5, Pub: make([]frontend.Variable, *public), steps: steps}
	for j := range assignment.Pub {
		assignment.Pub[j] = values[steps-*public+j]
	}
	full, err := frontend.NewWitness(assignment, field)
	if err != nil {
		fail("witness: %v", err)
	}
	pub, err := full.Public()
	if err != nil {
		fail("public witness: %v", err)
	}

	prove := func() (time.Duration, time.Duration) {
		t := time.Now()
		proof, err := groth16.Prove(ccs, pk, full)
		if err != nil {
			fail("prove: %v", err)
		}
		d := time.Since(t)
		t = time.Now()
		if err := groth16.Verify(proof, vk, pub); err != nil {
			fail("verify: %v", err)
		}
		return d, time.Since(t)
	}
	for i := 0; i < *warmup; i++ {
		d, v := prove()
		say("warm-up prove: %.1f ms (verified, %.1f ms)", ms(d), ms(v))
	}
	times := make([]float64, 0, *repeat)
	for i := 0; i < *repeat; i++ {
		d, v := prove()
		times = append(times, ms(d))
		say("prove %d: %.1f ms (verified, %.1f ms)", i+1, ms(d), ms(v))
	}
	med := median(times)

	if *asJSON {
		out, err := json.Marshal(result{
			Curve:        *curveName,
			LogN:         *logN,
			Constraints:  nb,
			Public:       *public,
			CompileMs:    ms(compile),
			SetupMs:      ms(setup),
			Warmup:       *warmup,
			ProveMs:      times,
			MedianMs:     med,
			GnarkVersion: gnark.Version.String(),
			Cpus:         runtime.NumCPU(),
			Gomaxprocs:   runtime.GOMAXPROCS(0),
		})
		if err != nil {
			fail("json: %v", err)
		}
		fmt.Println(string(out))
		return
	}
	say("median prove: %.1f ms of %d, all verified", med, *repeat)
}
