// Package prompt builds what Vika sends to a language model and what it
// says when no model is asked: the answer prompt (numbered, labelled
// sources delimited as data, the last turns of the conversation, a system
// prompt worded for the model's style), the prompt that turns a follow-up
// into a standalone question (and a heuristic for when no model is
// available), the abstention decision and message, and the extractive
// answer given when no provider is available.
//
// Call sites read: prompt.Build(input) for an llm.Request,
// prompt.Abstain(question, topBM25, threshold), prompt.Extractive(...).
package prompt

import (
	"strings"

	"vika/backend/corpus"
	"vika/backend/llm"
)

// Style is how the prompt is worded for a kind of model.
type Style string

const (
	// StyleCompact is for small, fast models: short rules, repeated after
	// the sources, a short answer.
	StyleCompact Style = "compact"
	// StyleBalanced is for capable models that answer straight away.
	StyleBalanced Style = "balanced"
	// StyleReasoning is for models that think before answering: the
	// reasoning stays private, only the final cited answer is returned.
	StyleReasoning Style = "reasoning"
)

// Styles lists the styles.
var Styles = []Style{StyleCompact, StyleBalanced, StyleReasoning}

// reasoningIDs mark models that think before answering, for those whose
// catalogue entry does not say so (models pulled into Ollama).
var reasoningIDs = []string{"gpt-oss", "deepseek-r1", "qwq", "magistral", "thinking", "reasoner", "o1-", "o3-", "o4-"}

// StyleFor picks the style of a model. The catalogue gives models that
// think before their first token a long first-token allowance (60 s or
// more): those, and models known by name to reason, get StyleReasoning;
// other tier-1 models get StyleCompact; the rest StyleBalanced.
func StyleFor(m llm.Model) Style {
	id := strings.ToLower(m.ID)
	for _, k := range reasoningIDs {
		if strings.Contains(id, k) {
			return StyleReasoning
		}
	}
	switch {
	case !m.Local && m.FirstTokenS >= 60:
		return StyleReasoning
	case m.Tier <= 1:
		return StyleCompact
	}
	return StyleBalanced
}

// Turn is one earlier exchange of the conversation.
type Turn struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	// Standalone is the question as it was searched for (rewritten when
	// it was a follow-up); "" when it was searched as asked.
	Standalone string `json:"standalone,omitempty"`
}

// MaxTurns is the number of earlier turns a prompt carries.
const MaxTurns = 3

// MaxTurnAnswer is the length, in runes, an earlier answer is cut to.
const MaxTurnAnswer = 1500

// Input is what an answer prompt is built from.
type Input struct {
	Question string
	// Sources are the retrieved passages, best first; they are numbered
	// 1..n in this order, which cite.Check expects too.
	Sources []corpus.Hit
	// History holds the earlier turns, oldest first; only the last
	// MaxTurns are used.
	History []Turn
	Style   Style // "" means StyleBalanced
	// Lang is the question's language (ISO 639-1) when known; the prompt
	// then names it. "" leaves the model to follow the question.
	Lang string
}

// temperature is low: the answer restates the sources.
const temperature = 0.2

// Build returns the request for input (Model is left to the runner).
// Reasoning models keep their provider's temperature (some accept no
// other); the others get 0.2.
func Build(in Input) llm.Request {
	style := in.Style
	if style == "" {
		style = StyleBalanced
	}
	req := llm.Request{System: systemPrompt(style)}
	if style != StyleReasoning {
		req.Temperature = llm.Temperature(temperature)
	}
	req.Messages = append(history(in.History), llm.Message{Role: llm.RoleUser, Content: userMessage(in, style)})
	return req
}

// history returns the last MaxTurns answered turns as messages.
func history(turns []Turn) []llm.Message {
	var answered []Turn
	for _, t := range turns {
		if strings.TrimSpace(t.Question) != "" && strings.TrimSpace(t.Answer) != "" {
			answered = append(answered, t)
		}
	}
	if len(answered) > MaxTurns {
		answered = answered[len(answered)-MaxTurns:]
	}
	msgs := make([]llm.Message, 0, 2*len(answered)+1)
	for _, t := range answered {
		msgs = append(msgs,
			llm.Message{Role: llm.RoleUser, Content: strings.TrimSpace(t.Question)},
			llm.Message{Role: llm.RoleAssistant, Content: truncate(strings.TrimSpace(t.Answer), MaxTurnAnswer)})
	}
	return msgs
}

// userMessage holds the sources, the question and, for compact models, a
// reminder of the rules after them.
func userMessage(in Input, style Style) string {
	var b strings.Builder
	b.Grow(256 + len(in.Question) + 400*len(in.Sources))
	writeSources(&b, in.Sources)
	b.WriteString("\n<question>\n")
	b.WriteString(escape(strings.TrimSpace(in.Question)))
	b.WriteString("\n</question>\n")
	if name := languageName(in.Lang); name != "" {
		b.WriteString("\nThe question is in " + name + ": answer in " + name + ".\n")
	}
	if style == StyleCompact {
		b.WriteString("\n" + compactReminder + "\n")
	}
	return b.String()
}

// languageName names the languages Vika detects.
func languageName(code string) string {
	switch code {
	case "en":
		return "English"
	case "fr":
		return "French"
	case "de":
		return "German"
	case "es":
		return "Spanish"
	case "it":
		return "Italian"
	case "pt":
		return "Portuguese"
	case "nl":
		return "Dutch"
	}
	return ""
}

// truncate cuts s to n runes, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n { // bytes >= runes
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n])) + " […]"
}
