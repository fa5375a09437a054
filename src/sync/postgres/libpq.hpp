// libpq, loaded when the adapter first connects (dlopen of libpq.so.5, the soname of every libpq
// since PostgreSQL 8.2) instead of when a program starts. A program that links the adapter (the
// memkit CLI, libmemkit for the bindings) then starts without libpq and the twenty libraries it
// brings (Kerberos, LDAP, TLS: about 9 ms of every start on a VM whose page faults are slow), and
// runs where libpq is not installed until a PostgreSQL remote is asked for.
#pragma once

#include <libpq-fe.h>

#include "memkit/result.hpp"

namespace memkit::detail::pg {

// Every libpq function the adapter calls.
// clang-format off
#define MEMKIT_LIBPQ_FUNCTIONS(X)                                                                \
  X(PQclear) X(PQcmdStatus) X(PQconnectdbParams) X(PQconninfoFree) X(PQconninfoParse)            \
  X(PQconsumeInput) X(PQerrorMessage) X(PQexec) X(PQexecParams) X(PQfinish) X(PQfreemem)         \
  X(PQgetResult) X(PQgetisnull) X(PQgetlength) X(PQgetvalue) X(PQnotifies) X(PQntuples)          \
  X(PQputCopyData) X(PQputCopyEnd) X(PQreset) X(PQresultErrorMessage) X(PQresultStatus)          \
  X(PQsetNoticeProcessor) X(PQsocket) X(PQstatus)
// clang-format on

// The functions of one loaded libpq, named as libpq names them.
struct LibPq {
#define MEMKIT_LIBPQ_MEMBER(name) decltype(&::name) name = nullptr;
  MEMKIT_LIBPQ_FUNCTIONS(MEMKIT_LIBPQ_MEMBER)
#undef MEMKIT_LIBPQ_MEMBER
};

inline constexpr const char* kLibPqName = "libpq.so.5";

// Loads the shared library `name` and looks up every function of LibPq in it. Errc::io naming the
// library and the loader's reason when it cannot be loaded or lacks one of them (the library is
// then unloaded again).
[[nodiscard]] Result<LibPq> open_libpq(const char* name);

// kLibPqName, loaded by the first call in the process (thread-safe); later calls give the first
// call's outcome. The library stays loaded until the process ends.
[[nodiscard]] Result<const LibPq*> load_libpq();

// The functions load_libpq() loaded. REQUIRES: load_libpq() succeeded (every Connection exists
// only after it has).
[[nodiscard]] const LibPq& libpq() noexcept;

}  // namespace memkit::detail::pg
