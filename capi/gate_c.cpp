// mk_workspace_gate (memkit.h Section - Commands): the five gates with the host's judgement as a C
// callback. The callback's text answers are parsed by memorybox::parse_gate_answer, so a C host,
// its bindings and the CLI's flags reach the same answers.
#include <string>

#include "capi/command_run.hpp"
#include "json/json.hpp"
#include "memkit/memorybox/gate.hpp"

namespace memkit::capi {
namespace {

mk_status append_answer(const char* data, size_t size, void* payload) {
  if (data == nullptr && size != 0) return MK_E_ARG;
  static_cast<std::string*>(payload)->append(data == nullptr ? "" : data, size);
  return MK_OK;
}

// The C callback as a Judge: its question as JSON, its answer parsed, a failure as a Status.
memorybox::Judge judge_of(mk_judge_fn judge, void* payload) {
  if (judge == nullptr) return {};
  return [judge, payload](
             const memorybox::GateQuestion& q) -> Result<std::optional<memorybox::GateAnswer>> {
    const std::string question = memorybox_gate_question_json(q);
    std::string answer;
    const std::int32_t said = judge(static_cast<mk_gate>(q.gate), question.data(), question.size(),
                                    append_answer, &answer, payload);
    if (said == MK_JUDGE_ABSTAIN) return std::optional<memorybox::GateAnswer>();
    if (said != MK_JUDGE_ANSWER) {
      return Status(Errc::callback, "the judge callback returned " + std::to_string(said));
    }
    Result<memorybox::GateAnswer> parsed = memorybox::parse_gate_answer(q.gate, answer);
    if (!parsed) return Status(Errc::callback, parsed.status().message());
    return std::optional<memorybox::GateAnswer>(std::move(parsed).value());
  };
}

}  // namespace
}  // namespace memkit::capi

extern "C" {

void mk_gate_candidate_init(mk_gate_candidate* candidate) {
  if (candidate == nullptr) return;
  *candidate =
      mk_gate_candidate{MK_GATE_CANDIDATE_VERSION, nullptr, 0, nullptr, nullptr, nullptr, nullptr};
}

mk_status mk_workspace_gate(mk_result** out, mk_workspace* ws, const mk_clock* now,
                            const mk_gate_candidate* candidate, mk_judge_fn judge, void* payload,
                            uint32_t flags) {
  using namespace memkit::capi;  // NOLINT: the shared helpers of the C ABI
  return run_built(out, ws, now, "gate", [&]() -> memkit::Result<memkit::CommandRequest> {
    if (candidate == nullptr) return null_argument("candidate");
    if (candidate->version != MK_GATE_CANDIDATE_VERSION) {
      return unknown_version("candidate", candidate->version);
    }
    if (memkit::Status known = known_flags("flags", flags, MK_GATE_APPLY); !known.ok()) {
      return known;
    }
    if (candidate->text == nullptr && candidate->text_size != 0) {
      return null_argument("candidate.text");
    }
    if (candidate->confidence == nullptr) return null_argument("candidate.confidence");
    memkit::CommandRequest request;
    request.options["--text"] = candidate->text_size == 0
                                    ? std::string()
                                    : std::string(candidate->text, candidate->text_size);
    request.options["--confidence"] = candidate->confidence;
    if (candidate->title != nullptr) request.options["--title"] = candidate->title;
    if (candidate->source != nullptr) request.options["--source"] = candidate->source;
    if (candidate->client != nullptr) request.options["--client"] = candidate->client;
    if ((flags & MK_GATE_APPLY) != 0) request.flags.emplace_back("--apply");
    request.judge = judge_of(judge, payload);
    return request;
  });
}

}  // extern "C"
