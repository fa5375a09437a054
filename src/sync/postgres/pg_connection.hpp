// One libpq connection of the PostgreSQL adapter: the PGconn and PGresult lifetimes, statements
// with text parameters, COPY FROM STDIN, noticing a connection the server dropped, and the
// adapter's messages ("PostgreSQL: <what>: <libpq's first line>", never the connection string).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include "libpq.hpp"
#include "memkit/result.hpp"

namespace memkit::detail::pg {

struct ResultFree {
  void operator()(PGresult* result) const noexcept { libpq().PQclear(result); }
};
using PgResult = std::unique_ptr<PGresult, ResultFree>;

// Errc::io, "PostgreSQL: <what>: <the first line of `libpq_message`>". libpq's messages name the
// server and the failure but never a password; the caller must not add the connection string.
[[nodiscard]] Status io_error(std::string_view what, std::string_view libpq_message);

// io_error for a failed connection: the cause alone. libpq's "connection to server on socket
// \"...\" failed: " (or "at \"host\", port N") and its severity go, and what the cause quotes
// (a database, user or host name: parts of the connection string) shows as "\u2026".
[[nodiscard]] Status connection_error(std::string_view what, std::string_view libpq_message);

class Connection final {
 public:
  // Connects with `conninfo` (a libpq keyword/value string or URI; "" takes libpq's defaults and
  // the PG* environment), always in UTF-8. Fails with Errc::invalid_argument when libpq cannot
  // parse `conninfo` (its message would quote a piece of it, perhaps the password, so it is not
  // passed on) and Errc::io when the server cannot be reached or refuses the login.
  [[nodiscard]] static Result<Connection> open(const std::string& conninfo);

  // Returns true iff the connection still looks usable. Reads whatever the server sent while
  // the connection was idle, so a backend that was terminated or a server that restarted (a
  // FATAL message, then end of file) is noticed before a call relies on the connection.
  [[nodiscard]] bool alive();
  // PQreset: connects again with the same parameters. Errc::io when that fails.
  [[nodiscard]] Status reconnect();
  // Returns true iff libpq has found the connection lost (the last failure was the connection's,
  // not a statement's).
  [[nodiscard]] bool lost() const noexcept {
    return libpq().PQstatus(conn_.get()) == CONNECTION_BAD;
  }

  // Runs one statement with text parameters (nullptr is SQL NULL) and returns its result: rows
  // for a query (PGRES_TUPLES_OK) or PGRES_COMMAND_OK. Anything else is io_error(what, ...).
  [[nodiscard]] Result<PgResult> run(std::string_view what, const char* sql,
                                     std::initializer_list<const char*> params = {});
  // Runs several statements without parameters in one message (the simple query protocol):
  // the schema's migrations.
  [[nodiscard]] Status run_script(std::string_view what, const char* sql);
  // Runs `copy_sql` (a COPY ... FROM STDIN) and sends it the data `produce` appends to its
  // buffer: `produce` is called until it returns false, and every filled buffer is sent before
  // the next call, so the rows are encoded while the server stores the previous ones.
  [[nodiscard]] Status copy_in(std::string_view what, const char* copy_sql,
                               const std::function<bool(std::string&)>& produce);

  // The number of statements that reached the server and succeeded on this connection: a call
  // that fails before the first of its statements succeeded changed nothing and may be retried.
  [[nodiscard]] std::uint64_t successes() const noexcept { return successes_; }

 private:
  struct ConnFinish {
    void operator()(PGconn* conn) const noexcept { libpq().PQfinish(conn); }
  };
  explicit Connection(PGconn* conn) : conn_(conn) {}

  std::unique_ptr<PGconn, ConnFinish> conn_;
  std::uint64_t successes_ = 0;
};

// A transaction on one connection: ROLLBACK when destroyed after begin() unless committed. A
// failed statement or a lost connection leaves nothing half-written: the server rolls back.
class Transaction final {
 public:
  explicit Transaction(Connection& connection) noexcept : connection_(connection) {}
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();

  // `begin_sql` is "BEGIN" or a BEGIN with an isolation level.
  [[nodiscard]] Status begin(std::string_view what, const char* begin_sql);
  [[nodiscard]] Status commit(std::string_view what);

 private:
  Connection& connection_;
  bool open_ = false;
};

}  // namespace memkit::detail::pg
