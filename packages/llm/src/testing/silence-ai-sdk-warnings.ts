// The AI SDK logs warnings (an unknown model's token limit, an ignored setting) to the console unless this
// global is false; tests assert on warnings through results instead.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
