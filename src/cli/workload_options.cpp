#include "workload_options.hpp"

#include "app.hpp"
#include "exit_status.hpp"
#include "output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <variant>

namespace gpuadvisor::cli {

void add_workload_flags(CLI::App& command, WorkloadFlags& f) {
    const auto add = [&](std::string_view name,
                         std::string& target,
                         std::string_view help,
                         std::string_view type) {
        command.add_option(std::string(name), target, std::string(help))
            ->type_name(std::string(type))
            ->group("Workload");
    };
    const auto kinds = choices(k_workload_kind_names);
    command.add_option("--workload", f.kind, choices_text(kinds))
        ->check(one_of(kinds))
        ->type_name("KIND")
        ->group("Workload");
    add("--profile", f.profile, "A workload profile YAML file (flags override it)", "FILE");
    add("--model", f.model, "A model preset (llama-2-7b, mixtral-8x7b, bert-base, ...)", "NAME");
    // Help lists --precision and --method between what is run and its shape (--seq-len...).
    const auto add_choices = [&] {
        const auto precisions = choices(k_precision_names);
        command.add_option("--precision", f.precision, "Compute precision")
            ->check(one_of(precisions))
            ->type_name(choices_type(precisions))
            ->group("Workload");
        const auto methods = choices(k_finetune_method_names);
        command.add_option("--method", f.method, "Fine-tuning method (default full)")
            ->check(one_of(methods))
            ->type_name(choices_type(methods))
            ->group("Workload");
    };
    for (std::size_t i = 0; i < k_workload_fields.size(); ++i) {
        const WorkloadField& field = k_workload_fields[i];
        if (field.key == "seq_len") {
            add_choices();
        }
        if (std::holds_alternative<WorkloadField::Switch>(field.member)) {
            command.add_flag(std::string(field.flag), f.fields[i].on, std::string(field.help))
                ->group("Workload");
        } else {
            const bool duration = field.kind == QuantityKind::duration_hours;
            add(field.flag, f.fields[i].text, field.help, duration ? "DURATION" : "N");
        }
    }
}

namespace {

// Parses one quantity flag into `target`; false (with a diagnostic) when malformed.
bool quantity(const std::string& text,
              std::string_view flag,
              QuantityKind kind,
              std::optional<double>& target,
              Diagnostics& diagnostics) {
    if (text.empty()) {
        return true;
    }
    const QuantityParse parsed = parse_quantity(text, kind);
    if (!parsed.value) {
        diagnostics.error({"gpuadvisor", 0, 0}, "usage", fmt::format("{}: {}", flag, parsed.error));
        return false;
    }
    target = parsed.value;
    return true;
}

Workload from_flags(const WorkloadFlags& f, Diagnostics& diagnostics) {
    Workload w;
    if (!f.kind.empty()) {
        w.kind = parse_workload_kind(f.kind);
    }
    if (!f.model.empty()) {
        w.model = f.model;
    }
    if (!f.precision.empty()) {
        w.precision = parse_precision(f.precision);
    }
    if (!f.method.empty()) {
        w.method = parse_finetune_method(f.method);
    }
    for (std::size_t i = 0; i < k_workload_fields.size(); ++i) {
        const WorkloadField& field = k_workload_fields[i];
        if (const auto* number = std::get_if<WorkloadField::Number>(&field.member)) {
            quantity(f.fields[i].text, field.flag, field.kind, w.*(*number), diagnostics);
        } else if (f.fields[i].on) {
            w.*std::get<WorkloadField::Switch>(field.member) = true;
        }
    }
    return w;
}

} // namespace

namespace {

// The flag a normalisation message names ("--batch: ..."), if any.
std::string_view flag_of(const Diagnostic& diagnostic) {
    const std::string_view message = diagnostic.message;
    const std::size_t colon = message.find(':');
    return message.starts_with("--") && colon != std::string_view::npos ? message.substr(0, colon)
                                                                        : std::string_view{};
}

// A value that came from the profile (its flag not given) is reported at its place in the
// file, under its key, as an input error. Returns true if any was.
bool locate_in_profile(Diagnostics& diagnostics,
                       const WorkloadLoad& profile,
                       const WorkloadFlags& flags) {
    const auto from_file = [&](std::string_view flag) {
        if (flag == "--workload") {
            return flags.kind.empty();
        }
        if (flag == "--model") {
            return flags.model.empty();
        }
        const auto field = std::find_if(k_workload_fields.begin(),
                                        k_workload_fields.end(),
                                        [&](const WorkloadField& f) { return f.flag == flag; });
        if (field == k_workload_fields.end()) {
            return false;
        }
        const FieldFlag& given =
            flags.fields[static_cast<std::size_t>(field - k_workload_fields.begin())];
        return given.text.empty() && !given.on;
    };
    Diagnostics located;
    bool any = false;
    for (Diagnostic diagnostic : diagnostics.items()) {
        const std::string_view flag = flag_of(diagnostic);
        std::string key(flag.empty() ? flag : flag.substr(2));
        std::replace(key.begin(), key.end(), '-', '_');
        const auto in_file = profile.positions.find(key);
        if (from_file(flag) && in_file != profile.positions.end()) {
            diagnostic.pos = in_file->second;
            diagnostic.message = key + diagnostic.message.substr(flag.size());
            any = true;
        }
        located.add(std::move(diagnostic));
    }
    located.sort(); // in file order once placed
    diagnostics = std::move(located);
    return any;
}

} // namespace

std::optional<NormalizedWorkload>
read_workload(const WorkloadFlags& flags, std::string_view command, Io& io, int& exit_code) {
    WorkloadLoad profile;
    if (!flags.profile.empty()) {
        profile = load_workload_profile(flags.profile);
        if (profile.diagnostics.has_errors()) {
            exit_code = fail(command, profile.diagnostics, k_exit_input, io);
            return std::nullopt;
        }
    }
    Diagnostics diagnostics;
    const Workload workload = overlay(profile.workload, from_flags(flags, diagnostics));
    if (diagnostics.has_errors()) {
        exit_code = fail(command, diagnostics, k_exit_usage, io);
        return std::nullopt;
    }
    NormalizeResult normalized = normalize(workload, builtin_models());
    if (!normalized.workload) {
        const bool in_profile = locate_in_profile(normalized.diagnostics, profile, flags);
        exit_code =
            fail(command, normalized.diagnostics, in_profile ? k_exit_input : k_exit_usage, io);
        return std::nullopt;
    }
    return std::move(normalized.workload);
}

} // namespace gpuadvisor::cli
