package recipes

import "strings"

// latexKnownNames are the control words pylatexenc 2.10's latex2text
// knows (its default latexwalker and latex2text context databases). A
// control word outside this list renders as nothing and takes no
// arguments; one on it that latexSymbols and the macros of
// prime_math_latex.go do not cover is not guessed.
var latexKnownNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(latexKnownList) {
		m[n] = true
	}
	return m
}()

const latexKnownList = `
AA AE Alpha Angle Beta Bumpeq CYRA CYRABHCH CYRABHCHDSC CYRABHDZE CYRABHHA CYRAE CYRB CYRBYUS CYRC
CYRCH CYRCHLDSC CYRCHRDSC CYRCHVCRS CYRD CYRDJE CYRDZE CYRDZHE CYRE CYREREV CYRERY CYRF CYRFITA CYRG
CYRGDSC CYRGDSCHCRS CYRGHCRS CYRGHK CYRGUP CYRH CYRHDSC CYRHHCRS CYRHHK CYRHRDSN CYRI CYRIE CYRII
CYRISHRT CYRIZH CYRJE CYRK CYRKBEAK CYRKDSC CYRKHCRS CYRKHK CYRKVCRS CYRL CYRLDSC CYRLJE CYRM
CYRMDSC CYRN CYRNDSC CYRNG CYRNHK CYRNJE CYRO CYROTLD CYRP CYRPHK CYRR CYRRTICK CYRS CYRSCHWA
CYRSDSC CYRSEMISFTSN CYRSFTSN CYRSH CYRSHCH CYRSHHA CYRT CYRTDSC CYRTETSE CYRTSHE CYRU CYRUSHRT CYRV
CYRY CYRYA CYRYAT CYRYHCRS CYRYI CYRYO CYRYU CYRZ CYRZDSC CYRZH CYRZHDSC CYRpalochka Cap Chi Citealp
Citealt Citeauthor Citep Citet Colon Cref Cup DH DJ DeclareMathOperator Delta Digamma DownArrowBar
DownArrowUpArrow DownLeftRightVector DownLeftTeeVector DownLeftVectorBar DownRightTeeVector
DownRightVectorBar Downarrow Epsilon Equal Eta Gamma H IJ Ident Iota Kappa Koppa L Lambda
LeftDownTeeVector LeftDownVectorBar LeftRightVector LeftTeeVector LeftTriangleBar LeftUpDownVector
LeftUpTeeVector LeftUpVectorBar LeftVectorBar Leftarrow Leftrightarrow Lleftarrow Longleftarrow
Longleftrightarrow Longrightarrow Lsh Mu NG NestedGreaterGreater NestedLessLess Nu O OE Omega
Omicron Phi Pi Psi RequirePackage ReverseUpEquilibrium Rho RightDownTeeVector RightDownVectorBar
RightTeeVector RightTriangleBar RightUpDownVector RightUpTeeVector RightUpVectorBar RightVectorBar
Rightarrow RoundImplies Rrightarrow Rsh RuleDelayed Sampi Sigma Stigma Subset Supset TH Tau Theta
UebungAttachedSolutionTitle UebungAttachedSolutionTitleFont UebungAttachedSolutionTitleTop
UebungDueBy UebungDueByLabel UebungExTitleFont UebungHinweisFont UebungHinweisLabel
UebungHinweiseLabel UebungLabel UebungLabelEnum UebungLabelEnumSub UebungLanguage UebungLecture
UebungLecturer UebungLoesungFont UebungLogoFile UebungProf UebungSemester UebungSolEquationLabel
UebungSolLabel UebungStyle UebungSubExTitleFont UebungSubLabel UebungTextAttachedSolution
UebungTipsEquationLabel UebungTipsFont UebungTipsLabel UebungTitleCenterVSpacing UebungsblattNumber
UebungsblattTitleFont UebungsblattTitleSeries UebungsblattTitleSolutions UebungsblattTitleTips
UpArrowBar UpEquilibrium Uparrow Updownarrow Upsilon VDash Vdash Vert Vvdash Xi Zeta aa acute
addcounter addlength ae aleph allequal alpha amalg angle approx approxeq approxnotequal aquarius
arccos arccosh arcsin arcsinh arctan arctanh aries arrowwaveleft arrowwaveright ast asymp author
autoref b backepsilon backprime backsim backsimeq backslash bar barwedge because beta beth between
bibliography bigcap bigcirc bigcup bigoplus bigotimes bigtriangledown bigtriangleup bigvee bigwedge
blacklozenge blacksquare blacktriangle blacktriangledown blacktriangleleft blacktriangleright bowtie
boxdot boxframe boxminus boxplus boxtimes bra braket breve bullet bumpeq c cancer cap capricornus
cdot cdots chapter check chi circ circeq circlearrowleft circlearrowright circledS circledast
circledcirc circleddash cite citealp citealt citeauthor citefullauthor citenum citep citepalias
citet citetalias citetext citeyear citeyearpar clockoint clwintegral color colorbox colorlet
complement cong coprod cos cosh cref cup curlyeqprec curlyeqsucc curlyvee curlywedge curvearrowleft
curvearrowright cyra cyrabhch cyrabhchdsc cyrabhdze cyrabhha cyrae cyrb cyrbyus cyrc cyrch cyrchldsc
cyrchrdsc cyrchvcrs cyrd cyrdje cyrdze cyrdzhe cyre cyrerev cyrery cyrf cyrfita cyrg cyrgdsc
cyrgdschcrs cyrghcrs cyrghk cyrgup cyrh cyrhdsc cyrhhcrs cyrhhk cyrhrdsn cyri cyrie cyrii cyrishrt
cyrizh cyrje cyrk cyrkbeak cyrkdsc cyrkhcrs cyrkhk cyrkvcrs cyrl cyrldsc cyrlje cyrm cyrmdsc cyrn
cyrndsc cyrng cyrnhk cyrnje cyro cyrotld cyrp cyrphk cyrr cyrrtick cyrs cyrschwa cyrsdsc
cyrsemisftsn cyrsftsn cyrsh cyrshch cyrshha cyrt cyrtdsc cyrtetse cyrtshe cyru cyrushrt cyrv cyry
cyrya cyryat cyryhcrs cyryi cyryo cyryu cyrz cyrzdsc cyrzh cyrzhdsc d dag dagger daleth dashv date
dblarrowupdown ddddot dddot ddot ddots defcitealias definecolor delta dh diagup diamond digamma div
divideontimes dj documentclass dot doteq doteqdot dotplus dots dotsb dotsc dotsi dotsm dotso
downarrow downdownarrows downharpoonleft downharpoonright downslopeellipsis eighthnote ell emph
emptyset enskip ensuremath epsilon eqcirc eqref eqslantgtr eqslantless equiv estimates eta eth
exenumfulllabel exercise exists exp fallingdotseq fcolorbox flat footnote forall forcesextra frac
frown gamma ge gemini geq geqq geqslant gg gimel gnapprox gneq gneqq gnsim grave greaterequivlnt
gtrapprox gtrdot gtreqless gtreqqless gtrless gtrsim guillemotleft guillemotright guilsinglleft
guilsinglright hat hbar hermitconjmatrix hint hints hinweis hinweise homothetic hookleftarrow
hookrightarrow hphantom href hslash hspace hypersetup i id iddots iiint iint ij image in include
includegraphics inf infty input int intercal iota item j jupiter k kappa ket ketbra keywords l lVert
label lambda langle lazysinv lbrace lceil ldots le leftarrow leftarrowtail leftharpoondown
leftharpoonup leftleftarrows leftrightarrow leftrightarrows leftrightharpoons leftrightsquigarrow
leftthreetimes leo leq leqq leqslant lessapprox lessdot lesseqgtr lesseqqgtr lessequivlnt lessgtr
lesssim lfloor libra lim liminf limsup ll llcorner lmoustache ln lnapprox lneq lneqq lnot lnsim log
longleftarrow longleftrightarrow longmapsto longrightarrow looparrowleft looparrowright lozenge
lrcorner ltimes lvert maketitle male mapsto mathbb mathbf mathcal mathfrak mathit mathrm mathscr
mathsf mathtt max mbox measuredangle mercury mho mid min mp mu multimap nLeftarrow nLeftrightarrow
nRightarrow nVDash nVdash nabla natural nearrow neptune neq newcommand newenvironment nexists ng
ngeq ngtr ni nicefrac nleftarrow nleftrightarrow nleq nless nmid nolinebreak nopagecolor not
notgreaterless notin notlessgreater nparallel nprec nrightarrow nsubseteq nsucc nsupseteq
ntriangleleft ntrianglelefteq ntriangleright ntrianglerighteq nu nvDash nvdash nwarrow o odot oe
oint omega omicron ominus openbracketleft openbracketright oplus original oslash otimes overbrace
overbracket overgroup overleftarrow overleftharpoon overleftrightarrow overline overlinesegment
overrightarrow overrightharpoon pagagraph pagecolor paragraph parallel part partial pdfloesung
pdfsolution perp perspcorrespond phi pi pisces pitchfork pluto pm prec precapprox preccurlyeq
precedesnotsimilar preceq precnapprox precneqq precsim prime prod propto providecolor providecommand
provideenvironment psi qquad quad quarternote quotedblbase quotesinglbase r rVert rangle rbrace
rceil recorder ref renewcommand renewenvironment rfloor rho rightangle rightanglearc rightarrow
rightarrowtail rightharpoondown rightharpoonup rightleftarrows rightleftharpoons rightmoon
rightrightarrows rightsquigarrow rightthreetimes risingdotseq rmoustache rowcolors rtimes rvert
sagittarius saturn scorpio searrow section selectlanguage setcounter setlength setminus sharp sigma
sim simeq sin sinh smallsetminus smile sphericalangle sqcap sqcup sqrint sqrt sqsubset sqsubseteq
sqsupset sqsupseteq square ss star starequal subexercise subparagraph subsection subset subseteq
subseteqq subsetneq subsetneqq subsubsection subuebung succ succapprox succcurlyeq succeq
succnapprox succneqq succnsim succsim sum sup supset supseteq supseteqq supsetneq supsetneqq surd
surfintegral swarrow tan tanh tau taurus texorpdfstring text textTheta textacutedbl textasciiacute
textasciibreve textasciicaron textasciicircum textasciidieresis textasciigrave textasciimacron
textasciitilde textasteriskcentered textbackslash textbaht textbf textbigcircle textblank
textbrokenbar textbullet textcelsius textcent textcircledP textcolonmonetary textcolor
textcompwordmark textcopyright textcurrency textdagger textdaggerdbl textdegree textdiscount textdiv
textdollar textdong textdoublepipe textdownarrow textellipsis textemdash textendash textestimated
texteuro textexclamdown textflorin textfrac textfractionsolidus textglotstop texthvlig
textinterrobang textit textlangle textleftarrow textlira textlnot textmd textmho textmp textmu
textmusicalnote textnaira textnrleg textnumero textohm textonehalf textonequarter textonesuperior
textopenbullet textordfeminine textordmasculine textparagraph textperiodcentered textpertenthousand
textperthousand textpeso textphi textpm textquestiondown textquotedblleft textquotedblright
textquoteleft textquoteright textquotesingle textrangle textrecipe textreferencemark textregistered
textrightarrow textrm textsc textschwa textsection textservicemark textsf textsl textsterling
texttheta textthreequarters textthreesuperior texttildelow texttimes texttrademark texttt textturnk
texttwosuperior textup textuparrow textvartheta textvisiblespace textwon textyen th therefore theta
tilde tildetrpl times title to today top triangledown triangleleft trianglelefteq triangleq
triangleright trianglerighteq truestate twoheadleftarrow twoheadrightarrow u udots uebung ulcorner
underbrace underbracket undergroup underleftarrow underleftrightarrow underline underlinesegment
underrightarrow uparrow updownarrow upharpoonleft upharpoonright uplus upsilon upslopeellipsis
upuparrows uranus urcorner url usepackage v varepsilon varkappa varnothing varperspcorrespond varphi
varpi varrho varsigma vartheta vartriangle vartriangleleft vartriangleright vdash vdots vec vee
veebar venus verb vert verymuchgreater verymuchless virgo volintegral vphantom vspace wedge widehat
wideparen widetilde wp wr xi xleftarrow xrightarrow zeta
`
