package study

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"vika/backend/llm"
	"vika/backend/message"
	"vika/backend/prompt"
)

// ErrUnformatted is a request of a guide or of flashcards that no model
// answered in the line format asked for (SUMMARY:, TERM:, Q:/A:): each
// reply, refused, moved on to the next model, and none was left. Its
// message (message.StudyUnformatted) names the models tried.
var ErrUnformatted = errors.New("the model's reply did not follow the format asked for")

func init() { message.Register(ErrUnformatted, message.StudyUnformatted) }

// errNoLines is why a reply was refused, in the fallback chain's record.
func errNoLines(task prompt.StudyTask) error {
	if task == prompt.StudyCards {
		return fmt.Errorf("%w: no Q:/A: pair", ErrUnformatted)
	}
	return fmt.Errorf("%w: no SUMMARY:, TERM: or Q:/A: line", ErrUnformatted)
}

// holds reports whether p has what a reply to task must have: a question
// with its answer for flashcards, any line for notes and merges.
func (p parsed) holds(task prompt.StudyTask) bool {
	answered := slices.ContainsFunc(p.qas, func(qa [2]string) bool { return qa[1] != "" })
	if task == prompt.StudyCards {
		return answered
	}
	return answered || len(p.summary) > 0 || len(p.terms) > 0
}

// unformattedIn reports whether err is the fallback chain exhausted with
// at least one model's reply refused as unformatted, and names those
// models. The others failed before answering (unavailable, rate
// limited: their notices say so): what the student can act on is that
// the models that did answer wrote no line of the format. A chain where
// no reply was refused stays the chain's error (message.Exhausted).
func unformattedIn(err error) ([]string, bool) {
	var ex *llm.ExhaustedError
	if !errors.As(err, &ex) {
		return nil, false
	}
	var names []string
	for _, a := range ex.Chain {
		name := a.Name
		if name == "" {
			name = a.Model
		}
		if a.ErrorKind == llm.KindOf(llm.ErrUnformatted) && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names, len(names) > 0
}

// unformatted is ErrUnformatted for task with the models refused. It
// does not wrap the chain's *llm.ExhaustedError, so that the job's
// message (llm.Problem) is this code and not "no model could answer".
func unformatted(task prompt.StudyTask, models []string) error {
	return message.Wrap(fmt.Errorf("%w in the reply of %s", errNoLines(task), strings.Join(models, ", ")),
		message.StudyUnformatted, "models", models)
}
