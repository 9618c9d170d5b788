"""Parts of the simulators that two papers or more use (the others live beside their paper:
simulators/<paper>/): the accuracy tolerance, the mechanisms, the concept classes, the
instances, the learners and the audit instances several simulators share."""
