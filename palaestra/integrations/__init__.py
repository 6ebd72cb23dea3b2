"""Bridges to other tools: OpenAI-compatible servers (vLLM, SGLang, llama.cpp, hosted APIs), trainers, exports."""
