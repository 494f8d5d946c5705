package main

import (
	"math/big"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/logger"
)

func TestChainValues(t *testing.T) {
	v := chain(3, ecc.BN254.ScalarField())
	// 5 * (5 + 3), 40 * (40 + 4), 1760 * (1760 + 5)
	for i, want := range []int64{40, 1760, 3106400} {
		if v[i].Cmp(big.NewInt(want)) != 0 {
			t.Fatalf("x_%d = %v, want %d", i+1, v[i], want)
		}
	}
}

// A small chain on both curves: k + public constraints, a proof that
// verifies, and a wrong public input that the prover's solver refuses.
func TestProveSmall(t *testing.T) {
	logger.Disable()
	const steps, public = 16, 2
	for _, curve := range []ecc.ID{ecc.BN254, ecc.BLS12_381} {
		field := curve.ScalarField()
		ccs, err := frontend.Compile(field, r1cs.NewBuilder,
			&SquareChain{Pub: make([]frontend.Variable, public), steps: steps})
		if err != nil {
			t.Fatal(err)
		}
		if got := ccs.GetNbConstraints(); got != steps+public {
			t.Fatalf("%s: %d constraints, want %d", curve, got, steps+public)
		}
		pk, vk, err := groth16.Setup(ccs)
		if err != nil {
			t.Fatal(err)
		}
		values := chain(steps, field)
		assign := func(bump int64) *SquareChain {
			a := &SquareChain{X0: 5, Pub: make([]frontend.Variable, public), steps: steps}
			for j := range a.Pub {
				a.Pub[j] = new(big.Int).Add(values[steps-public+j], big.NewInt(bump))
			}
			return a
		}
		full, err := frontend.NewWitness(assign(0), field)
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := full.Public()
		proof, err := groth16.Prove(ccs, pk, full)
		if err != nil {
			t.Fatalf("%s: prove: %v", curve, err)
		}
		if err := groth16.Verify(proof, vk, pub); err != nil {
			t.Fatalf("%s: verify: %v", curve, err)
		}
		bad, err := frontend.NewWitness(assign(1), field)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := groth16.Prove(ccs, pk, bad); err == nil {
			t.Fatalf("%s: a wrong public input was proved", curve)
		}
		badPub, _ := bad.Public()
		if err := groth16.Verify(proof, vk, badPub); err == nil {
			t.Fatalf("%s: the proof verified against a wrong public input", curve)
		}
	}
}
