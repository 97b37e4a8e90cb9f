from hyper.cli.main import entry

entry()
