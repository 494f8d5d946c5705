// GENERATED from rtl/src/zk_params.svh by `zkmsm-vectors params` -- do not edit.
// crates/rtl's test params_header_is_generated_from_svh fails if this file drifts.
#pragma once

constexpr int ZK_NB = 384;
constexpr int ZK_QBITS = 377;
constexpr int ZK_Q_BITS = 512;
constexpr const char* ZK_Q_HEX = "01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001";
constexpr int ZK_LEVELS = 3;
constexpr int ZK_TA = 26;
constexpr int ZK_TB = 17;
constexpr int ZK_RW = 384;
constexpr int ZK_WIN = 4;
constexpr int ZK_FANIN = 4;
constexpr int ZK_SPLIT = 1;
constexpr int ZK_CMAX = 16;
constexpr int ZK_PD = 16;
constexpr int ZK_BRL = 2;
constexpr int ZK_LOCK = 0;
constexpr int ZK_RQ = 0;
constexpr int ZK_AFF_SHARE = 1;
constexpr int ZK_AFF_OP_URAM = 1;
constexpr int ZK_NW = 32;
constexpr int ZK_WW = 8;
constexpr int ZK_DGW = 32;
constexpr int ZK_CW = 64;
constexpr int ZK_TE_K_BITS = 512;
constexpr const char* ZK_TE_K_HEX = "01784602fbff628a8bf6c1dd0d95a93e5597097dc5f2bb260f4d7cf27ef38fa5eae0237580faa8faf24b7e8444a706c6";
constexpr int ZK_Q_BLS12_381_BITS = 512;
constexpr const char* ZK_Q_BLS12_381_HEX = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
constexpr int ZK_QBITS_BLS12_381 = 381;
constexpr int ZK_Q_BN254_BITS = 512;
constexpr const char* ZK_Q_BN254_HEX = "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";
constexpr int ZK_QBITS_BN254 = 254;
constexpr int ZK_NB_BN254 = 256;
