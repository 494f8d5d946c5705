// Command gnark-srs writes a BN254 KZG setup made by gnark-crypto
// (kzg.NewSRS) and a polynomial, and prints gnark's own commitment to it
// (kzg.Commit: the MSM of the coefficients over the setup's G1 points), so
// that zkmsm's MSM of the same files can be checked against it
// (check.sh).
//
//	gnark-srs --log-n 12 --points P --scalars S
//
// P: the setup's G1 points as gnark serializes them uncompressed
// (G1Affine.RawBytes: big-endian x then y, the EIP-196/197 layout); S: the
// coefficients as 32-byte little-endian integers (zkmsm's scalar files).
// Standard output: the commitment as gnark's RawBytes, in hex.
package main

import (
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"math/big"
	"os"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/kzg"
)

func die(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "gnark-srs: "+format+"\n", a...)
	os.Exit(1)
}

func main() {
	logN := flag.Int("log-n", 12, "log2 of the setup size")
	pointsPath := flag.String("points", "", "output: the setup's G1 points (RawBytes)")
	scalarsPath := flag.String("scalars", "", "output: the coefficients (32-byte little-endian)")
	flag.Parse()
	if *pointsPath == "" || *scalarsPath == "" || *logN < 1 || *logN > 24 {
		die("usage: gnark-srs --log-n N --points P --scalars S")
	}
	n := uint64(1) << *logN
	alpha, err := rand.Int(rand.Reader, fr.Modulus())
	if err != nil {
		die("%v", err)
	}
	srs, err := kzg.NewSRS(n, new(big.Int).Set(alpha))
	if err != nil {
		die("NewSRS: %v", err)
	}
	coeffs := make([]fr.Element, n)
	for i := range coeffs {
		if _, err := coeffs[i].SetRandom(); err != nil {
			die("%v", err)
		}
	}
	// edge coefficients among the random ones: 0, 1, r - 1
	coeffs[0].SetZero()
	coeffs[1].SetOne()
	coeffs[2].SetOne()
	coeffs[2].Neg(&coeffs[2])
	digest, err := kzg.Commit(coeffs, srs.Pk)
	if err != nil {
		die("Commit: %v", err)
	}
	points := make([]byte, 0, 64*n)
	for i := range srs.Pk.G1 {
		raw := srs.Pk.G1[i].RawBytes()
		points = append(points, raw[:]...)
	}
	scalars := make([]byte, 0, 32*n)
	for i := range coeffs {
		be := coeffs[i].Bytes() // canonical, big-endian
		for j := 31; j >= 0; j-- {
			scalars = append(scalars, be[j])
		}
	}
	if err := os.WriteFile(*pointsPath, points, 0o644); err != nil {
		die("%v", err)
	}
	if err := os.WriteFile(*scalarsPath, scalars, 0o644); err != nil {
		die("%v", err)
	}
	raw := digest.RawBytes()
	fmt.Println(hex.EncodeToString(raw[:]))
}
