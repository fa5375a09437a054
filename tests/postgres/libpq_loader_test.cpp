// The adapter's libpq loader (src/sync/postgres/libpq.hpp): libpq is loaded when a remote first
// connects, and a library that is missing or is not libpq is a clear error, not a crash.
#include <doctest/doctest.h>

#include <string>

#include "libpq.hpp"
#include "pg_connection.hpp"

namespace pg = memkit::detail::pg;

TEST_CASE("libpq loader: a library that cannot be loaded is an I/O error that names the package") {
  const memkit::Result<pg::LibPq> opened = pg::open_libpq("libmemkit-no-such-library.so.0");
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.status().code() == memkit::Errc::io);
  const std::string message = opened.status().message();
  CHECK(message.find("PostgreSQL: libpq cannot be loaded (") == 0);
  CHECK(message.find("libmemkit-no-such-library.so.0") != std::string::npos);  // dlerror's
  CHECK(message.find("install libpq (Debian: libpq5)") != std::string::npos);
}

TEST_CASE("libpq loader: a library without libpq's functions is refused, naming the first") {
  const memkit::Result<pg::LibPq> opened = pg::open_libpq("libc.so.6");
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.status().code() == memkit::Errc::io);
  CHECK(opened.status().message() ==
        "PostgreSQL: libc.so.6 has no PQclear: it is not a libpq this adapter can use");
}

TEST_CASE("libpq loader: libpq.so.5 is loaded once, with every function the adapter calls") {
  const memkit::Result<const pg::LibPq*> first = pg::load_libpq();
  REQUIRE(first.ok());
  const memkit::Result<const pg::LibPq*> second = pg::load_libpq();
  REQUIRE(second.ok());
  CHECK(*first == *second);
  CHECK(&pg::libpq() == *first);
#define MEMKIT_CHECK_FOUND(function) CHECK((pg::libpq().function != nullptr));
  MEMKIT_LIBPQ_FUNCTIONS(MEMKIT_CHECK_FOUND)
#undef MEMKIT_CHECK_FOUND
  // The functions are libpq's own: a null connection is a bad one, and its message says so.
  CHECK(pg::libpq().PQstatus(nullptr) == CONNECTION_BAD);
  CHECK(std::string(pg::libpq().PQerrorMessage(nullptr)).find("connection pointer is NULL") !=
        std::string::npos);
}

TEST_CASE("libpq errors: a failed connection keeps the cause, never where it connected") {
  const auto said = [](std::string_view libpq_message) {
    return pg::connection_error("connecting", libpq_message).message();
  };
  CHECK(said("connection to server on socket \"/tmp/pg-x/.s.PGSQL.5433\" failed: FATAL:  "
             "database \"memkit_secret\" does not exist\n") ==
        "PostgreSQL: connecting: database \"\u2026\" does not exist");
  CHECK(said("connection to server at \"10.1.2.3\", port 6543 failed: FATAL:  password "
             "authentication failed for user \"alice\"\n") ==
        "PostgreSQL: connecting: password authentication failed for user \"\u2026\"");
  CHECK(said("connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs "
             "the server running on that host and accepting TCP/IP connections?\n") ==
        "PostgreSQL: connecting: Connection refused");
  CHECK(said("could not translate host name \"db.internal\" to address: Name or service not "
             "known\n") ==
        "PostgreSQL: connecting: could not translate host name \"\u2026\" to address: Name or "
        "service not known");
  CHECK(said("") == "PostgreSQL: connecting: the server could not be reached");
}
