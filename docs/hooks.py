"""An mkdocs hook (mkdocs.yml names it): the navigation names the architecture page
architecture.md; where the checkout still has it as ARCHITECTURE.md, it is served under the new
name, so the same mkdocs.yml builds before and after the rename. Once architecture.md exists
this does nothing."""

from mkdocs.structure.files import File


def on_files(files, config):
    if files.get_file_from_path("architecture.md") is None:
        old = files.get_file_from_path("ARCHITECTURE.md")
        if old is not None:
            files.remove(old)
            files.append(File.generated(config, "architecture.md", abs_src_path=old.abs_src_path))
    return files
