"""The gate every gated command passes first: the version pin in ``hyper.yaml``, compared for exact equality."""
