"""The reward file to give OpenRLHF: ``reward_func`` for rows of ``make_openrlhf_dataset`` or plain labels.

OpenRLHF 0.11 loads the file given to ``--reward.remote_url`` as a module and
calls ``reward_func([query], [prompt], [label])`` from a worker thread::

    --reward.remote_url $(python -c "import llenvs_go.integrations.openrlhf_reward as m; print(m.__file__)") \\
    --data.input_key input --data.label_key label --data.apply_chat_template

Each label names its task and environment; environments are rebuilt once per
process and per configuration, when the label names a built-in procedural
task or an environment configured for the process (``$LLENVS_GO_ENVIRONMENTS``):
labels are untrusted input, and any other reference is refused (counted under
``llenvs/refused_reference``). A label that is a ground truth (``"42"``) is
scored by the response's last ``\\boxed{}`` under the math verifier
(``$LLENVS_GO_LABEL_SCORING=exact`` for exact text). A sample that cannot be scored gets 0 and is
counted in ``extra_logs`` (OpenRLHF would otherwise swallow the exception and
fail later). The import is absolute: the file is executed by path.
"""

from llenvs_go.integrations.openrlhf import reward_func

__all__ = ["reward_func"]
