#pragma once
// The files of a Hugging Face model folder: config.json plus model.safetensors, or a sharded
// model.safetensors.index.json with its model-0000i-of-0000n.safetensors shards.
// Pickle checkpoints (pytorch_model.bin, *.pt, *.pth, *.ckpt) are refused without being opened.
#include <filesystem>

#include "core/base/result.hpp"

namespace attnscope {

struct CheckpointFiles {
    std::filesystem::path folder;
    std::filesystem::path config;   // folder/config.json
    std::filesystem::path weights;  // model.safetensors or model.safetensors.index.json
    bool sharded = false;
};

// When both model.safetensors.index.json and model.safetensors exist, the index wins.
// Pickle files next to safetensors files are ignored, never read; alone, they are refused.
Result<CheckpointFiles> findCheckpointFiles(const std::filesystem::path& folder);

// By name only: pytorch_model.bin(.index.json), *.bin, *.pt, *.pth, *.ckpt, *.pkl, *.pickle.
bool isPickleCheckpoint(const std::filesystem::path& file);
// Why AttnScope will not open it, and how to convert it.
Error pickleRefusal(const std::filesystem::path& file);

}  // namespace attnscope
