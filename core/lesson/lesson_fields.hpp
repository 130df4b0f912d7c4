#pragma once
// Reading and writing the fields of a lesson file (core/lesson/lesson.cpp and lesson_block.cpp):
// numbers, lists, matrices with their expected shape, texts. Errors name the field's path and
// what was expected and found; they are thrown by json::fail and caught by json::catching.
#include <string>

#include "core/base/matrix.hpp"
#include "core/lesson/lesson.hpp"
#include "core/base/result.hpp"
#include "core/io/json_reader.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

using Json = nlohmann::ordered_json;

namespace lesson_fields {

using Field = json::Field<Json>;

double readNumber(const Field& f);
bool readBool(const Field& obj, const std::string& key, bool fallback);
std::string readString(const Field& obj, const std::string& key, const std::string& fallback);
RowVec readVector(const Field& f, Eigen::Index expected);  // expected < 0: any length
// rows/cols of -1 mean "any"; a wrong shape is reported whole, with what it stands for.
Mat readMatrix(const Field& f, Eigen::Index rows, Eigen::Index cols, const ErrorText& shapeName);
std::string shapeText(Eigen::Index rows, Eigen::Index cols);  // "4×6", "n×6" for rows < 0

Json matrixJson(const Mat& m);
Json vectorJson(const RowVec& v);

Result<void> checkShape(const Mat& m, Eigen::Index rows, Eigen::Index cols, const std::string& where);
Result<void> checkFinite(const Mat& m, const std::string& where);

// One attention layer's heads_weights (kv_heads_weights), W_O and b_O, as the top level or
// layers[l] give them; read, written and checked (`path`: "layers[0]." or ""; `addedToX`: its
// output is added to its input, so it must be d_model wide).
LessonLayer readLayerWeights(const Field& obj, const Lesson& lesson);
Json layerWeightsJson(const Lesson& lesson, const LessonLayer& layer);
Result<void> validateLayerWeights(const Lesson& lesson, const LessonLayer& layer, const std::string& path, bool addedToX);

}  // namespace lesson_fields
}  // namespace attnscope
