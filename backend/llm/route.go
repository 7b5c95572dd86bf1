package llm

import "context"

// Route returns the router's plan for q over the models available now,
// without asking any: a long job (a study guide) sizes its requests to
// the model that will be asked first, then asks through AskFor, which
// plans again and falls back as answers do.
func (s *Service) Route(ctx context.Context, q Query) (Plan, error) {
	return s.router.Plan(q, s.Models(ctx))
}
