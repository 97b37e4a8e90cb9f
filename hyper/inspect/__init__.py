"""What the inspection commands read out of the Store, as rows and pages."""
