#include "record/json_line.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/json_util.h"

namespace collide::record {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// Whether `type` or a message type under it is a well-known type (special
// JSON forms).
bool HasWellKnownType(const Descriptor* type, std::vector<const Descriptor*>& seen) {
  if (type->file()->package() == "google.protobuf") return true;
  for (const Descriptor* s : seen) {
    if (s == type) return false;  // Recursive types: checked already on this path.
  }
  seen.push_back(type);
  for (int i = 0; i < type->field_count(); ++i) {
    const FieldDescriptor* f = type->field(i);
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && HasWellKnownType(f->message_type(), seen)) {
      return true;
    }
  }
  return false;
}

void AppendString(const std::string& s, std::string& out) {
  out += '"';
  std::size_t run = 0;  // Start of the characters not yet appended (none need escaping).
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s, run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
      }
    }
  }
  out.append(s, run, std::string::npos);  // UTF-8 passes through.
  out += '"';
}

template <typename T>
void AppendNumber(T value, std::string& out) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, end);
}

template <typename T>
void AppendFloating(T value, std::string& out) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
  } else if (std::isinf(value)) {
    out += value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  } else {
    AppendNumber(value, out);  // Shortest form that reads back the same value.
  }
}

void AppendBase64(const std::string& bytes, std::string& out) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out += '"';
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const std::uint32_t v = (static_cast<std::uint8_t>(bytes[i]) << 16) |
                            (static_cast<std::uint8_t>(bytes[i + 1]) << 8) |
                            static_cast<std::uint8_t>(bytes[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out += kAlphabet[(v >> k) & 63];
  }
  if (i < bytes.size()) {
    std::uint32_t v = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  out += '"';
}

void AppendMessage(const Message& message, std::string& out, std::size_t depth);

// Element `index` of a repeated field, or the singular value (index < 0).
void AppendValue(const Message& message, const Reflection& r, const FieldDescriptor* f, int index,
                 std::string& out, std::size_t depth) {
  const bool repeated = index >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      AppendNumber(repeated ? r.GetRepeatedInt32(message, f, index) : r.GetInt32(message, f), out);
      break;
    case FieldDescriptor::CPPTYPE_UINT32:
      AppendNumber(repeated ? r.GetRepeatedUInt32(message, f, index) : r.GetUInt32(message, f), out);
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      out += '"';
      AppendNumber(repeated ? r.GetRepeatedInt64(message, f, index) : r.GetInt64(message, f), out);
      out += '"';
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      out += '"';
      AppendNumber(repeated ? r.GetRepeatedUInt64(message, f, index) : r.GetUInt64(message, f), out);
      out += '"';
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      AppendFloating(repeated ? r.GetRepeatedDouble(message, f, index) : r.GetDouble(message, f), out);
      break;
    case FieldDescriptor::CPPTYPE_FLOAT:
      AppendFloating(repeated ? r.GetRepeatedFloat(message, f, index) : r.GetFloat(message, f), out);
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      out += (repeated ? r.GetRepeatedBool(message, f, index) : r.GetBool(message, f)) ? "true" : "false";
      break;
    case FieldDescriptor::CPPTYPE_ENUM: {
      const int value = repeated ? r.GetRepeatedEnumValue(message, f, index) : r.GetEnumValue(message, f);
      const google::protobuf::EnumValueDescriptor* named = f->enum_type()->FindValueByNumber(value);
      if (named != nullptr) {
        AppendString(named->name(), out);
      } else {
        AppendNumber(value, out);  // An unknown value as its number, as the mapping allows.
      }
      break;
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      const std::string value = repeated ? r.GetRepeatedString(message, f, index) : r.GetString(message, f);
      if (f->type() == FieldDescriptor::TYPE_BYTES) {
        AppendBase64(value, out);
      } else {
        AppendString(value, out);
      }
      break;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      AppendMessage(repeated ? r.GetRepeatedMessage(message, f, index) : r.GetMessage(message, f), out,
                    depth + 1);
      break;
  }
}

// A map field's entry key as the JSON object key (always a string).
void AppendMapKey(const Message& entry, std::string& out) {
  const FieldDescriptor* key = entry.GetDescriptor()->map_key();
  const Reflection& r = *entry.GetReflection();
  if (key->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
    AppendString(r.GetString(entry, key), out);
    return;
  }
  std::string text;
  AppendValue(entry, r, key, -1, text, 0);
  if (text.front() != '"') text = '"' + text + '"';
  out += text;
}

void AppendMessage(const Message& message, std::string& out, std::size_t depth) {
  const Reflection& r = *message.GetReflection();
  // One field list per nesting depth, kept across calls: no allocation per
  // message once warm (the writer thread prints thousands a second).
  thread_local std::vector<std::vector<const FieldDescriptor*>> lists;
  if (lists.size() <= depth) lists.resize(depth + 1);
  std::vector<const FieldDescriptor*>& fields = lists[depth];
  fields.clear();
  r.ListFields(message, &fields);  // Set fields only (proto3 defaults are not), by number.
  out += '{';
  bool first = true;
  for (const FieldDescriptor* f : fields) {
    if (f->is_extension()) continue;
    if (!first) out += ',';
    first = false;
    out += '"';
    out += f->json_name();  // [A-Za-z0-9_]: nothing to escape.
    out += "\":";
    if (f->is_map()) {
      out += '{';
      for (int i = 0; i < r.FieldSize(message, f); ++i) {
        if (i > 0) out += ',';
        const Message& entry = r.GetRepeatedMessage(message, f, i);
        AppendMapKey(entry, out);
        out += ':';
        AppendValue(entry, *entry.GetReflection(), entry.GetDescriptor()->map_value(), -1, out, depth);
      }
      out += '}';
    } else if (f->is_repeated()) {
      out += '[';
      for (int i = 0; i < r.FieldSize(message, f); ++i) {
        if (i > 0) out += ',';
        AppendValue(message, r, f, i, out, depth);
      }
      out += ']';
    } else {
      AppendValue(message, r, f, -1, out, depth);
    }
  }
  out += '}';
}

}  // namespace

void AppendJson(const Message& message, std::string& out) {
  static std::mutex mu;
  static std::unordered_map<const Descriptor*, bool> special;
  bool has_well_known = false;
  {
    std::lock_guard lock(mu);
    const auto [it, added] = special.try_emplace(message.GetDescriptor(), false);
    if (added) {
      std::vector<const Descriptor*> seen;
      it->second = HasWellKnownType(message.GetDescriptor(), seen);
    }
    has_well_known = it->second;
  }
  if (has_well_known) {
    std::string json;
    if (google::protobuf::util::MessageToJsonString(message, &json).ok()) out += json;
    return;
  }
  AppendMessage(message, out, 0);
}

}  // namespace collide::record
