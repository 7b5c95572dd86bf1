// The messages Go sends across the bridge: a stable code and its
// parameters (backend/message), translated here. codes.json, written by
// backend/message's test, lists every code Go can send; messages.test.ts
// checks that each has a text in every language.

import { fill, type Lang, type Message, type Params } from './lookup.ts';

/** A message from Go: {code, params} (backend/message.Message). */
export interface BridgeMessage {
  code: string;
  params?: Record<string, unknown> | null;
}

/** One model an answer tried (backend/message.Attempt). */
interface Attempt {
  model: string;
  reason: string;
}

const en = {
  'error.other': 'Something went wrong: {detail}',
  'error.cancelled': 'Stopped.',
  'error.timeout': 'It took too long and was stopped.',
  'error.session_closed': 'The session is closed: restart Vika.',
  'error.internal': 'Vika hit an internal error (a bug) and stopped this task; the rest goes on. The details are in the log.',
  'error.invalid': 'These settings are not valid: a value is outside its bounds.',
  'selection.invalid': 'This selection cannot be asked about: select some text of one page, at most {max} characters.',
  'error.bad_id': 'Vika could not start this task (its id is malformed or already in use): try again.',

  'ingest.empty': 'This is an empty file (0 bytes): there is nothing to read.',
  'ingest.not_pdf': 'This file is not a PDF{looks}.',
  'ingest.looks_like': ' (it looks like {what})',
  'ingest.folder': 'This is a folder, not a PDF.',
  'ingest.not_a_file': 'This is not a regular file (it is a pipe, a device or a socket), so it is not read.',
  'ingest.text_budget':
    'The document holds more text than Vika takes from one document ({limit} characters): only its first {pages} pages were read.',
  'page.text_cut': 'Page {page} holds more text than a page may ({limit} characters): the rest was dropped.',
  'page.over_budget': 'Page {page} was not read: the document reached its text budget ({limit} characters).',
  'page.doc_budget': 'Page {page} was not read: the document ran out of its time ({limit}).',
  'page.ocr_cap': 'Scanned page {page} was not OCRed: Vika OCRs at most {limit} pages of one document.',
  'ingest.doc_budget':
    'The document ran out of the time Vika gives one document ({limit}): {pages} pages were not read or not OCRed.',
  'ingest.doc_time_out':
    'The PDF ran out of the time Vika gives one document ({limit}) before any of its pages could be read.',
  'ingest.ocr_cap':
    'The document has more scanned pages than Vika OCRs in one document ({limit}): {pages} were not OCRed.',
  'ingest.region_budget':
    'The document holds more tables, figures or passages than Vika keeps of one document: {regions} regions, {crops} figure pictures and {passages} passages were left out.',
  'ingest.encrypted':
    'The PDF is password-protected: remove the protection (for example print it to a new PDF) and add it again.',
  'ingest.corrupt': 'The PDF is damaged and cannot be read.',
  'annotate.encrypted': 'This PDF is encrypted: Vika does not write your highlights and notes into it. Export them instead.',
  'annotate.corrupt': 'This PDF is damaged: Vika cannot write a copy of it with your highlights and notes.',
  'annotate.invalid': 'Highlight or note {index} (page {page}) cannot be written into the PDF ({why}).',
  'annotate.too_many': 'Too many highlights and notes for one copy: {count}, at most {limit}.',
  'annotate.failed': 'The copy with your highlights and notes could not be written ({detail}).',
  'ingest.no_pages': 'The PDF has no pages.',
  'ingest.too_large': 'The file is too large: {size}, the limit is {limit}.',
  'ingest.too_many_pages': 'The PDF has too many pages: {pages}, the limit is {limit}.',
  'ingest.duplicate': 'This PDF is already in the library as {label}.',
  'ingest.still_reading': '{label} is still being read (OCR of its scanned pages): try again once every page is read.',
  'ingest.reader_gave_up':
    'The PDF reader gave up on this document: too many pages crashed it or took too long.',
  'ingest.ocr_language_data': 'The OCR language data is missing: reinstall Vika.',
  'ingest.ocr_failed': 'Text recognition (OCR) failed on this document.',
  'ingest.truncated':
    'The file seems cut short (an incomplete download?): some pages may be missing or incomplete.',

  'answer.empty_question': 'The question is empty.',
  'answer.no_model':
    'No model is available: add an API key (Gemini, Mistral, Groq or OpenRouter) in Settings, or install a local model.',
  'answer.model_not_found': 'The model picked is not available: {detail}',
  'answer.exhausted':
    'No model could answer: {attempts}. Try again in a minute, pick another model, or add another provider’s API key in Settings.',
  'answer.attempt': '{model} ({reason})',

  'notice.no_model':
    'No model is available: the best passages are quoted instead of a written answer. Add an API key (Gemini, Mistral, Groq or OpenRouter) in Settings.',
  'notice.skipped': '{model} cannot be used now.{then}',
  'notice.fallback': '{model} is unavailable ({reason}).{then}',
  'notice.then': ' Trying {next}.',
  'notice.then_later': ' Trying {next}, then {later}.',
  'notice.none': ' No other model is available.',
  'notice.retry': '{model} did not answer ({reason}); asking it again in {seconds} s.',
  'notice.interrupted': 'The answer from {model} broke off ({reason}); what arrived is kept.',
  'notice.router': 'Router {router} is not available offline; the heuristic router is used.',
  'notice.router_unknown': 'There is no router {router}; the heuristic router is used.',
  'notice.config': 'Configuration problem: {detail}',
  'notice.cut_bytes': 'The answer from {model} was cut at {kb} KB; what arrived is kept.',
  'notice.cut_tokens': 'The answer from {model} reached its cap of {tokens} output tokens and ends there.',
  'notice.expand_skipped': '{step} was skipped ({reason}): the question was searched as asked.',
  'models.checksum':
    'The download of {model} was refused: {file} is not the pinned file (its sha256 differs). Nothing was installed; search keeps working as before.',
  'models.size':
    'The download of {model} was refused: {file} is {size} bytes, the pinned file {want}. Nothing was installed; search keeps working as before.',
  'models.offline': 'Cannot reach {host}: you are offline. Search keeps working with the built-in model.',
  'models.box_only': '{model} comes with Vika and cannot be downloaded: reinstall Vika to restore it.',
  'notice.images_withheld':
    '{model} reads no images: it answered from the text of the tables and figures ({count} not shown to it). Pick a vision model (Gemini, Pixtral, Mistral Small) to have them looked at.',

  'page.timeout': 'Reading this page took too long (more than {limit}): it was skipped.',
  'page.crashed': 'This page crashed the PDF reader: it was skipped.',
  'page.too_large': 'This page is too large to be read: it was skipped.',
  'page.unreadable': 'This page cannot be read: it was skipped.',
  'page.truncated': 'The content of this page is missing: the file is truncated (an incomplete download?).',
  'page.no_ocr': 'This scanned page needs text recognition (OCR), which is not available.',
  'page.ocr_timeout': 'Text recognition (OCR) of this page took too long (more than {limit}): it was skipped.',
  'page.ocr_crashed': 'Text recognition (OCR) of this page crashed the reader: it was skipped.',
  'page.ocr_language_data': 'Text recognition (OCR) failed: its language data is missing (reinstall Vika).',
  'page.ocr_failed': 'Text recognition (OCR) failed on this page.',

  'describe.no_model': 'No model is chosen to describe figures: pick one in Settings.',
  'summary.no_model':
    'Summarising passages needs a language model: add an API key in Settings, or turn on a local Ollama there.',
  'summary.failed': 'No model could summarise this document’s passages ({reason}); what was summarised is kept. Try again later.',
  'study.needs_model':
    'Flashcards and quizzes need a language model: add an API key (Gemini, Mistral, Groq or OpenRouter) in Settings, or turn on a local Ollama there.',
  'study.unknown_section': 'This document has no section titled “{section}” in its outline.',
  'study.no_passages': 'There is no text to study in this document or section.',
  'study.one_document': 'A section or a selection belongs to one document: study it with that document alone.',
  'study.card_no_page': 'A card cited {label}, a page the document does not have: it was refused.',
  'study.card_no_citation': 'A card’s answer cited no page: it was refused.',
  'study.uncited': 'cites no page',
  'review.unknown_card': 'This card is no longer under review: its document was removed.',
  'review.deck_full': 'The review deck is full: no more flashcards can be added to it this session.',
  'review.bad_grade': 'A card is graded Again, Hard, Good or Easy.',
  'note.invalid': 'This note cannot be kept: its {field} is not valid.',
  'note.unknown': 'This note is no longer in the session: its document was removed.',
  'note.full': 'You have made the most notes a session keeps: delete some to add others.',
  'note.none': 'There are no highlights or notes here yet.',
  'study.unformatted':
    'The model’s reply did not follow the format asked for (no SUMMARY:, TERM: or Q:/A: line; tried: {models}), so nothing was made. Try again, or pick another model.',
  'describe.not_vision': '{model} cannot describe figures: it reads no images. Pick a vision model in Settings.',
  'course.not_course': 'This file is not a Vika course file.',
  'course.version': 'This course file was saved by a newer Vika: update Vika to open it.',
  'course.tampered':
    'This course file was changed after it was saved (a PDF in it does not match its fingerprint): it was not opened.',
  'course.damaged': 'This course file is damaged: it was not opened.',
  'course.too_large': 'This course file is larger than Vika accepts: it was not opened.',
  'course.too_slow': 'Checking this course file took too long (a slow disk or network drive, or a file made to stall Vika): it was not opened.',
  'image.pixels':
    'This image is too large to read: {width} × {height} pixels, at most {megapixels} million pixels and 32767 a side. Save it at a smaller size and add it again.',
  'image.frames': 'This TIFF holds more than {limit} images: it was not read.',
  'image.heic':
    'HEIC and AVIF photos cannot be read: save the photo as JPEG (on an iPhone: Settings, Camera, Formats, Most Compatible) and add it again.',
  'ingest.ocr_poor':
    'OCR read page(s) {pages} poorly (confidence as low as {confidence} %): a blurred, dark or slanted photo? Answers from them may miss words.',
  'image.too_large':
    'This image is too large to read ({width} × {height} pixels; at most {limit} pixels, the long side at most {aspect} times the short one).',
  'convert.needs_office':
    'Vika converts {format} files with LibreOffice, which is not installed: install LibreOffice (on Debian: sudo apt install libreoffice-impress-nogui libreoffice-writer-nogui), or save the file as PDF.',
  'convert.office_failed': 'LibreOffice could not convert this {format} file: {detail}',
  'convert.reflowed':
    'Read without LibreOffice: the text of this {format} file only, on pages of its own (slides run together, page numbers differ). Install LibreOffice to keep its slides and pages.',
  'convert.unreadable': 'This {format} file is damaged or cannot be read.',
  'convert.too_slow': 'This {format} file took too long to read and was stopped.',
  'cache.damaged':
    'A remembered copy of a processed PDF ({doc}) was damaged ({why}): it was deleted and the PDF is processed again.',
  'cache.reset': 'The file of remembered documents was damaged: it was set aside and started afresh.',
  'cache.disk_full':
    'The disk is full: Vika stops remembering processed documents until it restarts. Nothing else is affected.',
  'cache.open': 'The remembered documents cannot be opened: PDFs are processed as usual.',
  'describe.failed':
    '{model} could not describe this document ({reason}); what was described is kept. Try again later, or pick another model in Settings.',

  'scope.unknown_section': 'No document searched has a section titled “{section}” in its outline.',
  'scope.section_ambiguous': 'Several documents have a section titled “{section}” ({docs}): tick only the one you mean.',
  'scope.section_outside': 'The section “{section}” (pages {from} to {to}) lies outside the pages searched.',
  'search.rerank_failed': 'The reranker {reranker} failed: the passages are in retrieval order ({detail}).',
  'search.figures_failed': 'The figure search failed: the text search stands ({detail}).',
  'search.dense_failed': 'The embedding model failed on the question: the passages were searched by keywords only ({detail}).',
  'search.dense_unavailable':
    'Searching by meaning needs an embedding model, and none is loaded ({detail}). Search by keywords instead.',

  'cite.unknown_file': 'unknown document',
  'cite.no_page': 'no page given',
  'cite.page_not_source': 'page not among the sources',
  'cite.no_source': 'no source with that number',
  'cite.no_claim': 'no sentence to check',
  'cite.no_overlap': 'the sentence does not match the cited passage',
  'cite.numbers': 'its numbers are not in the cited passage',

  'keyring.no_bus':
    'No D-Bus session was found, so the system keyring is not used: keys come from the environment variables.',
  'keyring.timeout': 'The system keyring did not answer within {limit} (is it locked?).',
  'keyring.failed': 'The system keyring failed: {detail}',

  'refused.empty': 'the answer is empty',
  'refused.too_long': 'the answer has {chars} characters, more than {limit}',
  'refused.not_utf8': 'the answer is not valid text (UTF-8)',
  'refused.control': 'the answer holds control characters',
  'refused.code_block': 'the answer holds a code block among other text',
  'refused.brace_unopened': 'a brace closes that was not opened',
  'refused.braces_open': '{count} braces are left open',
  'refused.sentences': 'the answer holds sentences, not only LaTeX',
  'refused.prose': 'the answer holds {words} words of prose',
  'refused.truncated': 'the answer was cut at the model’s token limit',
  'refused.blocked': 'the provider’s content filter blocked the answer',

  'reason.rate_limited': 'rate limited',
  'reason.quota': 'quota used up',
  'reason.unavailable': 'unavailable',
  'reason.auth': 'API key rejected',
  'reason.timeout': 'no answer in time',
  'reason.stream': 'broke off',
  'reason.bad_response': 'malformed answer',
  'reason.unformatted': 'reply not in the format asked for',
  'reason.model_not_found': 'model does not exist at the provider',
  'reason.bad_request': 'request rejected',
  'reason.blocked': 'blocked by the content filter',
  'reason.no_key': 'no API key',
  'reason.keyring': 'the system keyring could not be read',
  'reason.no_model': 'no model available',
  'reason.canceled': 'stopped',
  'reason.error': 'failed',

  'looks.png': 'a PNG image',
  'looks.jpeg': 'a JPEG image',
  'looks.gif': 'a GIF image',
  'looks.tiff': 'a TIFF image',
  'looks.zip': 'a ZIP archive (Word, PowerPoint, OpenDocument or EPUB file?)',
  'looks.office': 'an old Microsoft Office file (.doc, .ppt or .xls)',
  'looks.rtf': 'an RTF document',
  'looks.postscript': 'a PostScript file',
  'looks.gzip': 'a gzip-compressed file',
  'looks.7z': 'a 7-Zip archive',
  'looks.rar': 'a RAR archive',
  'looks.elf': 'a program (ELF executable)',
  'looks.exe': 'a Windows program',
  'looks.djvu': 'a DjVu document',
  'looks.late_header': 'a damaged PDF (its header appears later in the file)',
  'looks.html': 'a web page: was the download interrupted or blocked?',
  'looks.xml': 'an XML or SVG file',
  'looks.text': 'a plain text file',
} as const satisfies Record<string, Message>;

type Key = keyof typeof en;

const fr: Record<Key, Message> = {
  'error.other': 'Une erreur est survenue : {detail}',
  'error.cancelled': 'Arrêté.',
  'error.timeout': 'C’était trop long : arrêté.',
  'error.session_closed': 'La session est fermée : redémarrez Vika.',
  'error.internal': 'Vika a rencontré une erreur interne (un bug) et a arrêté cette tâche ; le reste continue. Les détails sont dans le journal.',
  'error.invalid': 'Ces réglages ne sont pas valides : une valeur sort de ses bornes.',
  'selection.invalid': 'On ne peut pas poser de question sur cette sélection : sélectionnez du texte d’une seule page, au plus {max} caractères.',
  'error.bad_id': 'Vika n’a pas pu lancer cette tâche (son identifiant est mal formé ou déjà utilisé) : réessayez.',

  'ingest.empty': 'C’est un fichier vide (0 octet) : il n’y a rien à lire.',
  'ingest.not_pdf': 'Ce fichier n’est pas un PDF{looks}.',
  'ingest.looks_like': ' (on dirait {what})',
  'ingest.folder': 'C’est un dossier, pas un PDF.',
  'ingest.not_a_file': 'Ce n’est pas un fichier ordinaire (c’est un tube, un périphérique ou une socket) : il n’est pas lu.',
  'ingest.text_budget':
    'Le document contient plus de texte que Vika n’en prend d’un document ({limit} caractères) : seules ses {pages} premières pages ont été lues.',
  'page.text_cut': 'La page {page} contient plus de texte qu’une page ne peut en avoir ({limit} caractères) : le reste a été écarté.',
  'page.over_budget': 'La page {page} n’a pas été lue : le document a atteint son budget de texte ({limit} caractères).',
  'page.doc_budget': 'La page {page} n’a pas été lue : le document a épuisé son temps ({limit}).',
  'page.ocr_cap': 'La page numérisée {page} n’a pas été reconnue (OCR) : Vika reconnaît au plus {limit} pages d’un document.',
  'ingest.doc_budget':
    'Le document a épuisé le temps que Vika accorde à un document ({limit}) : {pages} pages n’ont pas été lues ou reconnues.',
  'ingest.doc_time_out':
    'Le PDF a épuisé le temps que Vika accorde à un document ({limit}) avant qu’aucune de ses pages ait pu être lue.',
  'ingest.ocr_cap':
    'Le document a plus de pages numérisées que Vika n’en reconnaît dans un document ({limit}) : {pages} n’ont pas été reconnues.',
  'ingest.region_budget':
    'Le document contient plus de tableaux, de figures ou de passages que Vika n’en garde d’un document : {regions} régions, {crops} images de figures et {passages} passages ont été laissés de côté.',
  'ingest.encrypted':
    'Le PDF est protégé par un mot de passe : retirez la protection (par exemple en l’imprimant dans un nouveau PDF) puis ajoutez-le de nouveau.',
  'ingest.corrupt': 'Le PDF est endommagé et ne peut pas être lu.',
  'annotate.encrypted': 'Ce PDF est chiffré : Vika n’y écrit pas vos surlignages et vos notes. Exportez-les plutôt.',
  'annotate.corrupt': 'Ce PDF est endommagé : Vika ne peut pas en écrire une copie avec vos surlignages et vos notes.',
  'annotate.invalid': 'Le surlignage ou la note {index} (page {page}) ne peut pas être écrit dans le PDF ({why}).',
  'annotate.too_many': 'Trop de surlignages et de notes pour une copie : {count}, au plus {limit}.',
  'annotate.failed': 'La copie avec vos surlignages et vos notes n’a pas pu être écrite ({detail}).',
  'ingest.no_pages': 'Le PDF n’a aucune page.',
  'ingest.too_large': 'Le fichier est trop volumineux : {size}, la limite est de {limit}.',
  'ingest.too_many_pages': 'Le PDF a trop de pages : {pages}, la limite est de {limit}.',
  'ingest.duplicate': 'Ce PDF est déjà dans la bibliothèque sous le nom {label}.',
  'ingest.still_reading': '{label} est encore en lecture (OCR de ses pages scannées) : réessayez quand toutes ses pages sont lues.',
  'ingest.reader_gave_up':
    'Le lecteur de PDF a renoncé à ce document : trop de pages l’ont fait planter ou ont pris trop de temps.',
  'ingest.ocr_language_data': 'Les données de langue de l’OCR manquent : réinstallez Vika.',
  'ingest.ocr_failed': 'La reconnaissance de texte (OCR) a échoué sur ce document.',
  'ingest.truncated':
    'Le fichier semble coupé (un téléchargement incomplet ?) : certaines pages peuvent manquer ou être incomplètes.',

  'answer.empty_question': 'La question est vide.',
  'answer.no_model':
    'Aucun modèle n’est disponible : ajoutez une clé d’API (Gemini, Mistral, Groq ou OpenRouter) dans les Réglages, ou installez un modèle local.',
  'answer.model_not_found': 'Le modèle choisi n’est pas disponible : {detail}',
  'answer.exhausted':
    'Aucun modèle n’a pu répondre : {attempts}. Réessayez dans une minute, choisissez un autre modèle ou ajoutez la clé d’API d’un autre fournisseur dans les Réglages.',
  'answer.attempt': '{model} ({reason})',

  'notice.no_model':
    'Aucun modèle n’est disponible : les meilleurs passages sont cités au lieu d’une réponse rédigée. Ajoutez une clé d’API (Gemini, Mistral, Groq ou OpenRouter) dans les Réglages.',
  'notice.skipped': '{model} ne peut pas être utilisé pour l’instant.{then}',
  'notice.fallback': '{model} est indisponible ({reason}).{then}',
  'notice.then': ' Essai de {next}.',
  'notice.then_later': ' Essai de {next}, puis de {later}.',
  'notice.none': ' Aucun autre modèle n’est disponible.',
  'notice.retry': '{model} n’a pas répondu ({reason}) ; nouvel essai dans {seconds} s.',
  'notice.interrupted': 'La réponse de {model} s’est interrompue ({reason}) ; ce qui est arrivé est conservé.',
  'notice.router': 'Le routeur {router} n’est pas disponible hors ligne ; le routeur heuristique est utilisé.',
  'notice.router_unknown': 'Il n’y a pas de routeur {router} ; le routeur heuristique est utilisé.',
  'notice.config': 'Problème de configuration : {detail}',
  'notice.cut_bytes': 'La réponse de {model} a été coupée à {kb} Ko ; ce qui est arrivé est conservé.',
  'notice.cut_tokens': 'La réponse de {model} a atteint son plafond de {tokens} jetons de sortie et s’arrête là.',
  'notice.expand_skipped': '{step} a été omis ({reason}) : la question a été cherchée telle quelle.',
  'models.checksum':
    'Le téléchargement de {model} a été refusé : {file} n’est pas le fichier attendu (son sha256 diffère). Rien n’a été installé ; la recherche fonctionne comme avant.',
  'models.size':
    'Le téléchargement de {model} a été refusé : {file} fait {size} octets, le fichier attendu {want}. Rien n’a été installé ; la recherche fonctionne comme avant.',
  'models.offline': 'Impossible de joindre {host} : vous êtes hors ligne. La recherche continue avec le modèle intégré.',
  'models.box_only': '{model} est livré avec Vika et ne se télécharge pas : réinstallez Vika pour le retrouver.',
  'notice.images_withheld':
    '{model} ne lit pas les images : il a répondu d’après le texte des tableaux et figures ({count} non montrés). Choisissez un modèle qui voit les images (Gemini, Pixtral, Mistral Small) pour qu’il les regarde.',

  'page.timeout': 'La lecture de cette page a pris trop de temps (plus de {limit}) : elle a été ignorée.',
  'page.crashed': 'Cette page a fait planter le lecteur de PDF : elle a été ignorée.',
  'page.too_large': 'Cette page est trop grande pour être lue : elle a été ignorée.',
  'page.unreadable': 'Cette page ne peut pas être lue : elle a été ignorée.',
  'page.truncated': 'Le contenu de cette page manque : le fichier est tronqué (un téléchargement incomplet ?).',
  'page.no_ocr': 'Cette page numérisée demande la reconnaissance de texte (OCR), qui n’est pas disponible.',
  'page.ocr_timeout':
    'La reconnaissance de texte (OCR) de cette page a pris trop de temps (plus de {limit}) : elle a été ignorée.',
  'page.ocr_crashed': 'La reconnaissance de texte (OCR) de cette page a fait planter le lecteur : elle a été ignorée.',
  'page.ocr_language_data': 'La reconnaissance de texte (OCR) a échoué : ses données de langue manquent (réinstallez Vika).',
  'page.ocr_failed': 'La reconnaissance de texte (OCR) a échoué sur cette page.',

  'describe.no_model': 'Aucun modèle n’est choisi pour décrire les figures : choisissez-en un dans les Réglages.',
  'summary.no_model':
    'Résumer les passages demande un modèle de langue : ajoutez une clé d’API dans les Réglages, ou activez-y un Ollama local.',
  'summary.failed':
    'Aucun modèle n’a pu résumer les passages de ce document ({reason}) ; ce qui a été résumé est conservé. Réessayez plus tard.',
  'study.needs_model':
    'Les fiches et les quiz demandent un modèle de langue : ajoutez une clé d’API (Gemini, Mistral, Groq ou OpenRouter) dans les Réglages, ou activez-y un Ollama local.',
  'study.unknown_section': 'Le plan de ce document n’a pas de section intitulée « {section} ».',
  'study.no_passages': 'Ce document ou cette section n’a pas de texte à étudier.',
  'study.one_document': 'Une section ou une sélection appartient à un seul document : étudiez-la avec ce document seul.',
  'study.card_no_page': 'Une fiche citait {label}, une page que le document n’a pas : elle a été refusée.',
  'study.card_no_citation': 'La réponse d’une fiche ne citait aucune page : elle a été refusée.',
  'study.uncited': 'ne cite aucune page',
  'review.unknown_card': 'Cette fiche n’est plus en révision : son document a été retiré.',
  'review.deck_full': 'Le paquet de révision est plein : aucune autre fiche ne peut y entrer pendant cette session.',
  'review.bad_grade': 'Une fiche se note À revoir, Difficile, Correct ou Facile.',
  'note.invalid': 'Cette note ne peut pas être gardée : son champ {field} n’est pas valide.',
  'note.unknown': 'Cette note n’est plus dans la session : son document a été retiré.',
  'note.full': 'Vous avez fait le plus de notes qu’une session garde : supprimez-en pour en ajouter.',
  'note.none': 'Il n’y a encore ni surlignage ni note ici.',
  'study.unformatted':
    'La réponse du modèle ne suivait pas le format demandé (aucune ligne SUMMARY:, TERM: ou Q:/A: ; essayé : {models}) : rien n’a été fait. Réessayez, ou choisissez un autre modèle.',
  'describe.not_vision':
    '{model} ne peut pas décrire les figures : il ne lit pas les images. Choisissez un modèle qui voit les images dans les Réglages.',
  'course.not_course': 'Ce fichier n’est pas un fichier de cours Vika.',
  'course.version': 'Ce fichier de cours a été enregistré par un Vika plus récent : mettez Vika à jour pour l’ouvrir.',
  'course.tampered':
    'Ce fichier de cours a été modifié après son enregistrement (un PDF ne correspond pas à son empreinte) : il n’a pas été ouvert.',
  'course.damaged': 'Ce fichier de cours est endommagé : il n’a pas été ouvert.',
  'course.too_large': 'Ce fichier de cours dépasse la taille acceptée par Vika : il n’a pas été ouvert.',
  'course.too_slow': 'La vérification de ce fichier de cours a pris trop de temps (disque ou lecteur réseau lent, ou fichier conçu pour bloquer Vika) : il n’a pas été ouvert.',
  'image.pixels':
    'Cette image est trop grande pour être lue : {width} × {height} pixels, au plus {megapixels} millions de pixels et 32767 par côté. Enregistrez-la en plus petit et ajoutez-la à nouveau.',
  'image.frames': 'Ce TIFF contient plus de {limit} images : il n’a pas été lu.',
  'image.heic':
    'Les photos HEIC et AVIF ne peuvent pas être lues : enregistrez la photo en JPEG (sur iPhone : Réglages, Appareil photo, Formats, Le plus compatible) et ajoutez-la à nouveau.',
  'ingest.ocr_poor':
    'L’OCR a mal lu la ou les page(s) {pages} (confiance de {confidence} % au plus bas) : photo floue, sombre ou de biais ? Les réponses tirées de ces pages peuvent manquer des mots.',
  'image.too_large':
    'Cette image est trop grande pour être lue ({width} × {height} pixels ; au plus {limit} pixels, le grand côté au plus {aspect} fois le petit).',
  'convert.needs_office':
    'Vika convertit les fichiers {format} avec LibreOffice, qui n’est pas installé : installez LibreOffice (sous Debian : sudo apt install libreoffice-impress-nogui libreoffice-writer-nogui), ou enregistrez le fichier en PDF.',
  'convert.office_failed': 'LibreOffice n’a pas pu convertir ce fichier {format} : {detail}',
  'convert.reflowed':
    'Lu sans LibreOffice : seul le texte de ce fichier {format}, sur des pages à lui (les diapositives s’enchaînent, les numéros de page diffèrent). Installez LibreOffice pour garder ses diapositives et ses pages.',
  'convert.unreadable': 'Ce fichier {format} est endommagé ou illisible.',
  'convert.too_slow': 'La lecture de ce fichier {format} a pris trop de temps : elle a été arrêtée.',
  'cache.damaged':
    'Une copie mémorisée d’un PDF traité ({doc}) était endommagée ({why}) : elle a été supprimée et le PDF est traité à nouveau.',
  'cache.reset': 'Le fichier des documents mémorisés était endommagé : il a été mis de côté et recommencé à neuf.',
  'cache.disk_full':
    'Le disque est plein : Vika cesse de mémoriser les documents traités jusqu’à son redémarrage. Rien d’autre n’est affecté.',
  'cache.open': 'Les documents mémorisés ne peuvent pas être ouverts : les PDF sont traités comme d’habitude.',
  'describe.failed':
    '{model} n’a pas pu décrire ce document ({reason}) ; ce qui a été décrit est conservé. Réessayez plus tard ou choisissez un autre modèle dans les Réglages.',

  'scope.unknown_section': 'Aucun document cherché n’a de section intitulée « {section} » dans son plan.',
  'scope.section_ambiguous': 'Plusieurs documents ont une section intitulée « {section} » ({docs}) : ne cochez que celui que vous voulez.',
  'scope.section_outside': 'La section « {section} » (pages {from} à {to}) est hors des pages cherchées.',
  'search.rerank_failed': 'Le reclassement par {reranker} a échoué : les passages restent dans l’ordre de la recherche ({detail}).',
  'search.figures_failed': 'La recherche de figures a échoué : la recherche dans le texte reste valable ({detail}).',
  'search.dense_failed': 'Le modèle de plongement a échoué sur la question : les passages ont été cherchés par mots-clés seulement ({detail}).',
  'search.dense_unavailable':
    'La recherche par le sens demande un modèle de plongement, et aucun n’est chargé ({detail}). Cherchez par mots-clés.',

  'cite.unknown_file': 'document inconnu',
  'cite.no_page': 'aucune page indiquée',
  'cite.page_not_source': 'page absente des sources',
  'cite.no_source': 'aucune source de ce numéro',
  'cite.no_claim': 'aucune phrase à vérifier',
  'cite.no_overlap': 'la phrase ne correspond pas au passage cité',
  'cite.numbers': 'ses nombres ne sont pas dans le passage cité',

  'keyring.no_bus':
    'Aucune session D-Bus n’a été trouvée : le trousseau système n’est pas utilisé, les clés viennent des variables d’environnement.',
  'keyring.timeout': 'Le trousseau système n’a pas répondu en {limit} (est-il verrouillé ?).',
  'keyring.failed': 'Le trousseau système a échoué : {detail}',

  'refused.empty': 'la réponse est vide',
  'refused.too_long': 'la réponse a {chars} caractères, plus de {limit}',
  'refused.not_utf8': 'la réponse n’est pas du texte valide (UTF-8)',
  'refused.control': 'la réponse contient des caractères de contrôle',
  'refused.code_block': 'la réponse contient un bloc de code au milieu d’autre texte',
  'refused.brace_unopened': 'une accolade se ferme sans avoir été ouverte',
  'refused.braces_open': '{count} accolades restent ouvertes',
  'refused.sentences': 'la réponse contient des phrases, pas seulement du LaTeX',
  'refused.prose': 'la réponse contient {words} mots de prose',
  'refused.truncated': 'la réponse a été coupée à la limite de jetons du modèle',
  'refused.blocked': 'le filtre de contenu du fournisseur a bloqué la réponse',

  'reason.rate_limited': 'limite de débit atteinte',
  'reason.quota': 'quota épuisé',
  'reason.unavailable': 'indisponible',
  'reason.auth': 'clé d’API refusée',
  'reason.timeout': 'pas de réponse à temps',
  'reason.stream': 'interrompu',
  'reason.bad_response': 'réponse mal formée',
  'reason.unformatted': 'réponse hors du format demandé',
  'reason.model_not_found': 'modèle inconnu du fournisseur',
  'reason.bad_request': 'requête refusée',
  'reason.blocked': 'bloqué par le filtre de contenu',
  'reason.no_key': 'pas de clé d’API',
  'reason.keyring': 'le trousseau système n’a pas pu être lu',
  'reason.no_model': 'aucun modèle disponible',
  'reason.canceled': 'arrêté',
  'reason.error': 'échec',

  'looks.png': 'une image PNG',
  'looks.jpeg': 'une image JPEG',
  'looks.gif': 'une image GIF',
  'looks.tiff': 'une image TIFF',
  'looks.zip': 'une archive ZIP (fichier Word, PowerPoint, OpenDocument ou EPUB ?)',
  'looks.office': 'un ancien fichier Microsoft Office (.doc, .ppt ou .xls)',
  'looks.rtf': 'un document RTF',
  'looks.postscript': 'un fichier PostScript',
  'looks.gzip': 'un fichier compressé gzip',
  'looks.7z': 'une archive 7-Zip',
  'looks.rar': 'une archive RAR',
  'looks.elf': 'un programme (exécutable ELF)',
  'looks.exe': 'un programme Windows',
  'looks.djvu': 'un document DjVu',
  'looks.late_header': 'un PDF endommagé (son en-tête apparaît plus loin dans le fichier)',
  'looks.html': 'une page web : le téléchargement a-t-il été interrompu ou bloqué ?',
  'looks.xml': 'un fichier XML ou SVG',
  'looks.text': 'un fichier texte brut',
};

export const bridgeTexts: Record<Lang, Record<string, Message>> = { en, fr };

function text(lang: Lang, key: string): Message | undefined {
  return bridgeTexts[lang][key] ?? bridgeTexts.en[key];
}

function reasonText(lang: Lang, kind: unknown): string {
  return fill(lang, text(lang, `reason.${String(kind)}`) ?? text(lang, 'reason.error')!);
}

/** A list of names from Go (a notice's models still to try) joined in
 * lang ("A, B and C", "A, B et C"); "" when there is none. */
function listOf(lang: Lang, names: unknown): string {
  if (!Array.isArray(names) || names.length === 0) return '';
  return new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' }).format(names.map(String));
}

/** The text of a message from Go in lang. */
export function describe(lang: Lang, m: BridgeMessage): string {
  const raw = m.params ?? {};
  const params: Params = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === 'string' || typeof value === 'number') params[name] = value;
  }
  if ('reason' in raw) params.reason = reasonText(lang, raw.reason);
  if (Array.isArray(raw.models)) params.models = listOf(lang, raw.models);
  if (Array.isArray(raw.attempts)) {
    params.attempts = (raw.attempts as Attempt[])
      .map((a) => fill(lang, text(lang, 'answer.attempt')!, { model: a.model, reason: reasonText(lang, a.reason) }))
      .join(lang === 'fr' ? ' ; ' : '; ');
  }
  if ('looks' in raw) {
    const what = raw.looks ? text(lang, `looks.${String(raw.looks)}`) : undefined;
    params.looks = what ? fill(lang, text(lang, 'ingest.looks_like')!, { what: fill(lang, what) }) : '';
  }
  if ('next' in raw) {
    const later = listOf(lang, raw.later);
    const then = later ? 'notice.then_later' : 'notice.then';
    params.then = raw.next ? fill(lang, text(lang, then)!, { next: String(raw.next), later }) : fill(lang, text(lang, 'notice.none')!);
  }
  const message = text(lang, m.code);
  if (message === undefined) {
    return fill(lang, text(lang, 'error.other')!, { detail: String(raw.detail ?? m.code) });
  }
  return fill(lang, message, params);
}

/** True when m says the user stopped it. */
export function isCancelled(m: BridgeMessage | null | undefined): boolean {
  return m?.code === 'error.cancelled';
}

