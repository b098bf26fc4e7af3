package reasoninggym

func (t *countdown) Score(answer string, ok bool, e *Entry) float64 { return 0 }
